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
import { blockEnvironment, linkStagegraph, runShellBlock, type ShellContext } from './helpers/shell-block.js';
import { serveTokenGateway, type TokenGateway } from './helpers/token-gateway.js';

/**
 * Commands that are executed: every ```sh and ```python block of README.md, docs/*.md and clients/*\/README.md
 * runs as written, in the order a reader meets it, under the rule of docs/contributing.md — against the demo
 * as `npm start` serves it, or, when it names `<agent token>`, against a gateway that requires tokens. Each
 * block is its own test, named by file and line, so a failure points at the doc.
 */

/** The system Python the clients' README names: Debian's python3-requests and python3-websockets are its. */
const PYTHON = '/usr/bin/python3';

let scratch: string;
let demo: ServedDemo;
let tokens: TokenGateway;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-docs-commands-'));
  linkStagegraph(scratch);
  // One after the other: a start that fails leaves nothing running that afterAll would not stop.
  demo = await serveDemo('docs-commands-demo');
  tokens = await serveTokenGateway('docs-commands-tokens');
}, DEMO_READY_TIMEOUT_MS + 30_000);

afterAll(async () => {
  const codes = await Promise.all([demo?.stop(), tokens?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
  expect(codes).toEqual([0, 0]);
});

function contextFor(block: DocBlock): ShellContext {
  return namesTokens(block)
    ? {
        gatewayUrl: tokens.gateway.url,
        scratch,
        agentToken: tokens.agentToken,
        approverToken: tokens.approverToken,
      }
    : { gatewayUrl: demo.gateway.url, scratch };
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
