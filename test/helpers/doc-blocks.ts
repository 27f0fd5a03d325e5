import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Every fenced block of the pages a user reads (README.md, docs/*.md, clients/*\/README.md), by language
 * tag, with the markers written right before it. docs/contributing.md states the rules this module applies:
 * which blocks run where, what a marker means, and which placeholders stand for what.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What an HTML comment on the lines right before a block asks of the test that runs it. */
export interface BlockMarkers {
  /** `<!-- not run: reason -->` — the block is not run, and the reason shows in the test's name. */
  readonly notRun?: string;
  /** `<!-- until printed: text -->` — runs until its output holds the text, then gets Ctrl-C (SIGINT). */
  readonly untilPrinted?: string;
  /** `<!-- meanwhile: graphql -->` — an operation sent to the block's gateway, again and again, while it runs. */
  readonly meanwhile?: string;
}

export interface DocBlock {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The language tag, '' for none. */
  readonly lang: string;
  readonly body: string;
  readonly markers: BlockMarkers;
}

/** Which test runs a block, by its tag (and, for JSON, its content). */
export type Runner = 'graphql' | 'policy' | 'shell' | 'python' | 'mcp-config' | 'output' | 'not-run';

const SHELL_TAGS = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*(not run|until printed|meanwhile):\s*(.*?)\s*-->$/;
/** A comment before a block that looks meant as a marker but is not one (a typo) fails rather than being ignored. */
const MARKER_LIKE = /^<!--\s*(not[ -]?run|until|meanwhile|skip)/i;

/** README.md, then docs/*.md by name, then each client's README: the order a reader meets them. */
export function docBlockFiles(): string[] {
  const docs = readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  const clients = readdirSync(`${ROOT}clients`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `clients/${entry.name}/README.md`)
    .filter((file) => {
      try {
        readFileSync(`${ROOT}${file}`);
        return true;
      } catch {
        return false;
      }
    })
    .sort();
  return ['README.md', ...docs, ...clients];
}

/** Every fenced block of `file`, in document order; a marker that is not one throws, naming its line. */
export function blocksOf(file: string): DocBlock[] {
  const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```([\w-]*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    let end = index + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end += 1;
    if (end >= lines.length) throw new Error(`${file}:${start + 1}: a fence that never closes`);
    blocks.push({
      file,
      line: start + 1,
      lang: open[1]!,
      body: lines.slice(start + 1, end).join('\n'),
      markers: markersBefore(lines, start, file),
    });
    index = end;
  }
  return blocks;
}

/** The markers on the comment lines directly above the fence at `fence` (no blank line between). */
function markersBefore(lines: readonly string[], fence: number, file: string): BlockMarkers {
  const markers: Record<string, string> = {};
  for (let index = fence - 1; index >= 0 && lines[index]!.trim().startsWith('<!--'); index -= 1) {
    const text = lines[index]!.trim();
    const match = MARKER.exec(text);
    if (!match) {
      if (MARKER_LIKE.test(text))
        throw new Error(`${file}:${index + 1}: "${text}" looks like a marker but is not one`);
      continue;
    }
    const [, key, value] = match;
    if (!value) throw new Error(`${file}:${index + 1}: the marker "${key}" needs a value`);
    markers[key === 'not run' ? 'notRun' : key === 'until printed' ? 'untilPrinted' : 'meanwhile'] = value;
  }
  return markers;
}

/**
 * The runner of a block, or why none can run it. GraphQL and policy blocks are run by
 * test/docs-examples.e2e.test.ts, which reads README.md and docs/ only.
 */
export function runnerOf(block: DocBlock): Runner | { readonly unrunnable: string } {
  if (block.markers.notRun) return 'not-run';
  const onlyReadmeAndDocs = block.file === 'README.md' || block.file.startsWith('docs/');
  if (block.lang === 'graphql' && onlyReadmeAndDocs) return 'graphql';
  if (block.lang === 'yaml' && onlyReadmeAndDocs) return 'policy';
  if (SHELL_TAGS.has(block.lang)) return 'shell';
  if (block.lang === 'python') return 'python';
  if (block.lang === 'text') return 'output';
  if (block.lang === 'json' && isMcpConfig(block.body)) return 'mcp-config';
  return {
    unrunnable:
      `a \`\`\`${block.lang || '(untagged)'} block no test runs: tag it text if it shows output, ` +
      'or mark it <!-- not run: reason --> on the line before it (docs/contributing.md)',
  };
}

function isMcpConfig(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { mcpServers?: unknown };
    return typeof parsed.mcpServers === 'object' && parsed.mcpServers !== null;
  } catch {
    return false;
  }
}

/** The demo's default address, as the docs write it; every spelling of it is the gateway a block runs against. */
const DOCUMENTED_GATEWAY = /\b(?:127\.0\.0\.1|localhost|build-host):4700\b/g;

/** What the placeholders of docs/contributing.md's rule stand for in one run. */
export interface PlaceholderValues {
  /** host:port of the gateway the block runs against. */
  readonly gateway: string;
  readonly agentToken?: string;
  readonly approverToken?: string;
}

/** The block's text with each placeholder replaced by what it stands for in this run. */
export function resolvePlaceholders(text: string, values: PlaceholderValues): string {
  let resolved = text
    .replaceAll('/path/to/stagegraph/', ROOT)
    .replaceAll('/path/to/electron', `${ROOT}fixtures/electron-standin/electron`)
    .replaceAll('/path/to/app', `${ROOT}fixtures/app/main.js`)
    .replace(DOCUMENTED_GATEWAY, values.gateway);
  if (values.agentToken) resolved = resolved.replaceAll('<agent token>', values.agentToken);
  if (values.approverToken) resolved = resolved.replaceAll('<approver token>', values.approverToken);
  return resolved;
}

/** Whether the block names a token placeholder, and so runs against a gateway that requires tokens. */
export function namesTokens(block: DocBlock): boolean {
  return block.body.includes('<agent token>') || block.body.includes('<approver token>');
}

export function blockName(block: DocBlock): string {
  if (block.lang === 'json') return `${block.file}:${block.line} json`;
  const first = block.body.split('\n').find((line) => line.trim() && !line.trim().startsWith('#')) ?? '';
  return `${block.file}:${block.line} ${block.lang || '(untagged)'} ${first.trim().slice(0, 60)}`;
}
