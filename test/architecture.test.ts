import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** Lower index = lower layer. A file may import its own layer and any layer below, never above. */
const LAYERS = ['errors', 'transports', 'domain', 'schema', 'plugins', 'server', 'mcp'] as const;
/**
 * The MCP bridge sits beside server/ at the top: server/ serves it at /mcp and `stagegraph mcp` starts a
 * gateway, so each may import the other.
 */
const BESIDE_SERVER = 'mcp';
/** What the bridge may import: it is a client of the GraphQL schema, never of the domain or a transport. */
const MCP_MAY_IMPORT = ['mcp', 'server', 'errors'];
/**
 * Inside transports/: the shared parts, each with the shared parts it may use. Every other folder is one
 * transport, which may use any shared part but never another transport.
 */
const SHARED_TRANSPORT_PARTS: Record<string, readonly string[]> = {
  contract: [],
  process: ['contract'],
  protocol: ['contract'],
  'main-agent': ['contract', 'process', 'protocol'],
  'page-engine': ['contract', 'process', 'protocol', 'main-agent'],
};
/**
 * The domain reaches apps only through transports/contract/; these helpers of the shared parts, which reach
 * no app, are all it borrows besides (docs/architecture.md says which and why).
 */
const DOMAIN_BORROWS = [
  'transports/protocol/in-turns.ts',
  'transports/protocol/deadline.ts',
  'transports/process/loopback.ts',
  'transports/process/process-group.ts',
  'transports/process/owner-only-modes.ts',
];
/**
 * Folders beside the layers, importing none of them: each may reach outside itself only for these files
 * (the CLI's flag and token tables, plain JavaScript that loads no server code).
 */
const BESIDE_LAYERS: Record<string, readonly string[]> = {
  web: [],
  clients: [],
  cli: ['server/serve-flags.js', 'server/token-record.js'],
};
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
/** Packages that only the upper layers may speak. */
const GRAPHQL_PACKAGES = /^(graphql|graphql-yoga|graphql-ws|@pothos\/|@graphql-)/;
const MAX_LINES = 400;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(path: string): number {
  const layer = relative(ROOT, path).split('/')[0] as (typeof LAYERS)[number];
  return LAYERS.indexOf(layer === BESIDE_SERVER ? 'server' : layer);
}

/** The folder directly under transports/ that holds `path`, or null for a file lying loose there. */
function transportFolderOf(path: string): string | null {
  const parts = relative(join(ROOT, 'transports'), path).split('/');
  return parts.length > 1 ? (parts[0] as string) : null;
}

const sources = LAYERS.flatMap((layer) => files(join(ROOT, layer)));

/** What the repository holds, as paths from its root (folders end with `/`); ignored output left out. */
function repoPaths(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (['node_modules', '.git', '.artifacts', 'coverage', '.scratch'].includes(name)) return [];
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) return [relative(ROOT, path)];
    return [`${relative(ROOT, path)}/`, ...repoPaths(path)];
  });
}

/**
 * A path as a doc writes one: `server/app.ts`, `gates/`, `preview/target-preview.ts`, `handover.ts`. Not
 * URLs, routes (`/mcp`), package names (`@pothos/*`) nor placeholders (`schema/<area>.ts` counts as `schema/`).
 */
const DOC_PATH =
  /(?<![\w@/.:<*-])(?:(?:[\w.-]+\/)+(?:[\w-]+(?:\.[\w-]+)*)?|[\w-]+(?:\.[\w-]+)*\.(?:ts|js|md|json|py|yaml))(?![\w/:*>-])/g;

/** Every path a doc names in code spans and code blocks, and every relative link it makes. */
function pathsNamedIn(markdown: string): string[] {
  const code = [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2] ?? '');
  const links = [...markdown.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? '');
  return [...code.flatMap((text) => [...text.matchAll(DOC_PATH)].map((m) => m[0])), ...links];
}

/**
 * A named path exists when it is a path from the root, from the doc's own folder, or the tail of one the
 * repository holds (a doc says `gates/governance.ts` once it has said `schema/`).
 */
function missingPaths(doc: string, named: readonly string[], known: readonly string[]): string[] {
  return named.filter(
    (path) =>
      !existsSync(join(ROOT, path)) &&
      !existsSync(join(ROOT, doc, '..', path)) &&
      !known.some((held) => held.endsWith(`/${path}`)),
  );
}

describe('architecture', () => {
  it('imports point down the layers only', () => {
    const violations: string[] = [];
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = resolve(file, '..', specifier);
        // Tests beside the code may use the shared test helpers; production code may not.
        if (file.endsWith('.test.ts') && relative(ROOT, target).startsWith('test/helpers/')) continue;
        const targetLayer = layerOf(target);
        if (targetLayer === -1)
          violations.push(`${relative(ROOT, file)} imports outside the layers: ${specifier}`);
        else if (targetLayer > layerOf(file))
          violations.push(`${relative(ROOT, file)} imports upward: ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('a transport imports only the shared parts of transports/, and a shared part only those below it', () => {
    const violations: string[] = [];
    for (const file of sources.filter((path) => relative(ROOT, path).startsWith('transports/'))) {
      const from = transportFolderOf(file);
      if (from === null) {
        violations.push(`${relative(ROOT, file)} lies loose in transports/: put it in a folder`);
        continue;
      }
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = resolve(file, '..', specifier);
        if (!relative(ROOT, target).startsWith('transports/')) continue;
        const to = transportFolderOf(target);
        if (to === from) continue;
        const allowed = SHARED_TRANSPORT_PARTS[from] ?? Object.keys(SHARED_TRANSPORT_PARTS);
        if (to === null || !allowed.includes(to))
          violations.push(`${relative(ROOT, file)} (${from}) imports ${to ?? 'a loose file'}: ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the domain takes from transports/ only the contract and the helpers docs/architecture.md lists', () => {
    const violations = sources
      .filter((file) => relative(ROOT, file).startsWith('domain/') && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => relative(ROOT, resolve(file, '..', specifier)).replace(/\.js$/, '.ts'))
          .filter((target) => target.startsWith('transports/') && !target.startsWith('transports/contract/'))
          .filter((target) => !DOMAIN_BORROWS.includes(target))
          .map((target) => `${relative(ROOT, file)}: ${target}`),
      );
    expect(violations).toEqual([]);
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(DOMAIN_BORROWS.filter((path) => !architecture.includes(`\`${path}\``))).toEqual([]);
  });

  it('web/, clients/ and cli/ import none of the layers', () => {
    const violations = Object.entries(BESIDE_LAYERS).flatMap(([folder, allowed]) =>
      repoPaths(join(ROOT, folder))
        .filter((path) => /\.(tsx?|js)$/.test(path) && !/\.test\.tsx?$/.test(path))
        .flatMap((path) =>
          [...readFileSync(join(ROOT, path), 'utf8').matchAll(IMPORT)]
            .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
            .filter((specifier) => specifier.startsWith('.'))
            .map((specifier) => relative(ROOT, resolve(ROOT, path, '..', specifier)))
            .filter((target) => !target.startsWith(`${folder}/`) && !allowed.includes(target))
            .map((target) => `${path}: ${target}`),
        ),
    );
    expect(violations).toEqual([]);
  });

  it('the MCP bridge imports only server/ and errors/: GraphQL is its way into the gateway', () => {
    const violations = sources
      .filter((file) => relative(ROOT, file).startsWith(`${BESIDE_SERVER}/`))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
          .filter((specifier) => specifier.startsWith('.'))
          .filter(
            (specifier) =>
              !MCP_MAY_IMPORT.includes(relative(ROOT, resolve(file, '..', specifier)).split('/')[0] ?? ''),
          )
          .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
      );
    expect(violations).toEqual([]);
  });

  it('errors, transports and the domain know nothing of GraphQL', () => {
    const violations = sources
      .filter((file) => layerOf(file) <= LAYERS.indexOf('domain') && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
          .filter((specifier) => GRAPHQL_PACKAGES.test(specifier))
          .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
      );
    expect(violations).toEqual([]);
  });

  it(`source files stay under ${MAX_LINES} lines`, () => {
    const long = sources
      .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
  it("docs/architecture.md and the README's code map name only paths that exist", () => {
    const known = repoPaths(ROOT);
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const codeMap = readme.slice(readme.indexOf('## Where things live'), readme.indexOf('## Read on'));
    expect(codeMap).toContain('transports/');
    expect(pathsNamedIn(architecture)).toContain('domain/events/streams.ts');
    expect({
      'docs/architecture.md': missingPaths('docs/architecture.md', pathsNamedIn(architecture), known),
      'README.md': missingPaths('README.md', pathsNamedIn(codeMap), known),
    }).toEqual({ 'docs/architecture.md': [], 'README.md': [] });
  });
});
