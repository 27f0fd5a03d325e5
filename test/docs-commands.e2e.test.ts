import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_TIMEOUT_MS, finished, startBlockProcess } from './helpers/block-process.js';
import {
  blockName,
  blocksOf,
  type DocBlock,
  docBlockFiles,
  namesTokens,
  ROOT,
  resolvePlaceholders,
  runnerOf,
} from './helpers/doc-blocks.js';
import { DEMO_READY_TIMEOUT_MS, type ServedDemo, serveDemo } from './helpers/served-demo.js';
import {
  blockEnvironment,
  linkStagegraph,
  runShellBlock,
  type ShellContext,
  segmentsOf,
} from './helpers/shell-block.js';
import { serveTokenGateway, type TokenGateway } from './helpers/token-gateway.js';

/**
 * Commands that are executed: every ```sh and ```python block of README.md, docs/*.md and clients/*\/README.md
 * runs as written, in the order a reader meets it, under the rule of docs/contributing.md — against the demo
 * as `npm start` serves it (a fresh one for each page), or, when it names `<agent token>`, against a gateway
 * that requires tokens. Each
 * block is its own test, named by file and line, so a failure points at the doc.
 */

/** The system Python the clients' README names: Debian's python3-requests and python3-websockets are its. */
const PYTHON = '/usr/bin/python3';

let scratch: string;
let tokens: TokenGateway;
/** The demo of the page being run: each page gets a fresh one, so what one page's blocks did (a window a
 * watch's clicks opened) is not the next page's starting point, as it is not a reader's. */
let demo: ServedDemo | undefined;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-docs-commands-'));
  linkStagegraph(scratch);
  tokens = await serveTokenGateway('docs-commands-tokens');
});

afterAll(async () => {
  const code = await tokens?.stop();
  rmSync(scratch, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** Whether a block runs against the page's demo: not when it names tokens, is a transcript or starts its own gateway. */
function needsDemo(block: DocBlock): boolean {
  if (namesTokens(block) || block.body.startsWith('$ ')) return false;
  const first = segmentsOf(block.body)[0];
  return !(first && 'server' in first);
}

function contextFor(block: DocBlock): ShellContext {
  return needsDemo(block)
    ? { gatewayUrl: demo!.gateway.url, scratch }
    : {
        gatewayUrl: tokens.gateway.url,
        scratch,
        agentToken: tokens.agentToken,
        approverToken: tokens.approverToken,
      };
}

/** A ```python block runs with the system Python in its README's folder, where the client module sits. */
async function runPythonBlock(block: DocBlock): Promise<void> {
  const context = contextFor(block);
  const source = resolvePlaceholders(block.body, { gateway: new URL(context.gatewayUrl).host });
  const running = startBlockProcess(PYTHON, ['-'], {
    cwd: join(ROOT, dirname(block.file)),
    env: blockEnvironment(context, context.gatewayUrl),
    stdin: source,
  });
  const ended = await finished(running);
  expect(ended, `the block failed:\n${running.output()}`).toEqual({ code: 0, signal: null });
}

for (const file of docBlockFiles()) {
  const blocks = blocksOf(file).filter((block) => {
    const runner = runnerOf(block);
    return (
      runner === 'shell' ||
      runner === 'python' ||
      (block.markers.notRun && /^(sh|bash|shell|python)$/.test(block.lang))
    );
  });
  if (blocks.length === 0) continue;
  describe(file, () => {
    beforeAll(async () => {
      if (blocks.some((block) => !block.markers.notRun && needsDemo(block)))
        demo = await serveDemo(`docs-commands-${file.replaceAll('/', '-')}`);
    }, DEMO_READY_TIMEOUT_MS + 30_000);
    afterAll(async () => {
      const code = await demo?.stop();
      demo = undefined;
      if (code !== undefined) expect(code).toBe(0);
    });
    for (const block of blocks) {
      const name = blockName(block);
      if (block.markers.notRun) {
        it.skip(`${name} (not run: ${block.markers.notRun})`, () => {});
        continue;
      }
      const run =
        runnerOf(block) === 'python' ? runPythonBlock : (b: DocBlock) => runShellBlock(b, contextFor(b));
      it(name, () => run(block), BLOCK_TIMEOUT_MS * 2);
    }
  });
}
