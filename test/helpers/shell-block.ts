import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  type BlockProcess,
  finished,
  startBlockProcess,
  stopLikeCtrlC,
  whenOutput,
} from './block-process.js';
import { type DocBlock, type PlaceholderValues, ROOT, resolvePlaceholders } from './doc-blocks.js';

/**
 * Runs a ```sh block as docs/contributing.md says: in the clone, under bash -e -o pipefail, with `stagegraph`
 * on PATH; a line that starts a gateway is run until it is ready and then stopped with Ctrl-C, and the
 * lines after it in the block run against that gateway; a `$ ` transcript is run and compared with its output.
 */

/** A line that starts a gateway, as the docs write one: `npm start`, `npm run serve`, `stagegraph serve …`. */
const SERVER_LINE =
  /^\s*(?:[A-Z_]+=\S*\s+)*(?:npm start|npm run serve|(?:npx )?stagegraph serve|node bin\/stagegraph\.js serve)\b/;
/**
 * Commands a test must never run on the machine it runs on: installing system or npm packages, or the whole
 * suite from inside it. A block holding one fails until it is marked `<!-- not run: reason -->`.
 */
const UNRUNNABLE =
  /(^|[\s;&|(])(sudo|apt-get|apt|npm (ci|install|i|test|run test(:main)?|run chaos|run fuzz)|(npx )?vitest)(?=\s|$)/m;
const DEMO_LINE = /npm start|--demo\b/;
const SERVING = /serving GraphQL at (http:\/\/\S+)/;
const DEMO_RUNNING = /demo session s1 \(.*\) is RUNNING/;
/** While a block with `<!-- meanwhile: … -->` runs, its operation is sent this often: a watch may connect at any time. */
const MEANWHILE_INTERVAL_MS = 1_000;

/** Where a block runs: the gateway its `127.0.0.1:4700` stands for, and a scratch folder for what servers write. */
export interface ShellContext {
  readonly gatewayUrl: string;
  readonly scratch: string;
  readonly agentToken?: string;
  readonly approverToken?: string;
}

/** `stagegraph` on PATH, as `npm link` in the clone puts it; returns the folder to prepend. */
export function linkStagegraph(scratch: string): string {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(ROOT, 'bin/stagegraph.js'), join(bin, 'stagegraph'));
  return bin;
}

/** The environment of a user's shell, plus the rule's: a free port and scratch artifacts for served gateways. */
export function blockEnvironment(context: ShellContext, gatewayUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('STAGEGRAPH_') && !key.startsWith('VITEST') && key !== 'NODE_ENV') env[key] = value;
  return {
    ...env,
    PATH: `${join(context.scratch, 'bin')}:${process.env.PATH}`,
    STAGEGRAPH_URL: gatewayUrl,
    STAGEGRAPH_PORT: '0',
    STAGEGRAPH_ARTIFACTS: join(context.scratch, 'artifacts'),
    // npx must never fetch a package a block names: everything a doc runs is in the clone.
    npm_config_offline: 'true',
    PYTHONDONTWRITEBYTECODE: '1',
  };
}

type Segment = { readonly server: string } | { readonly script: string };

/** The block cut at each line that starts a gateway. */
export function segmentsOf(body: string): Segment[] {
  const segments: Segment[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.some((line) => line.trim() && !line.trim().startsWith('#')))
      segments.push({ script: pending.join('\n') });
    pending = [];
  };
  for (const line of body.split('\n')) {
    // `serve --help` prints its options and exits: it is a command like any other.
    if (SERVER_LINE.test(line) && !/\s--help\b/.test(line)) {
      flush();
      segments.push({ server: line });
    } else pending.push(line);
  }
  flush();
  return segments;
}

export async function runShellBlock(block: DocBlock, context: ShellContext): Promise<void> {
  const refused = UNRUNNABLE.exec(block.body);
  if (refused)
    throw new Error(
      `"${refused[2]}" cannot run inside the suite: mark the block <!-- not run: reason --> (docs/contributing.md)`,
    );
  if (block.body.startsWith('$ ')) return runTranscript(block, context);
  let gatewayUrl = context.gatewayUrl;
  let server: BlockProcess | undefined;
  const stopServer = async () => {
    if (!server) return;
    const ended = await stopLikeCtrlC(server);
    expect(ended.code === 0 || ended.signal === 'SIGINT', `the gateway ended ${JSON.stringify(ended)}`).toBe(
      true,
    );
    server = undefined;
  };
  try {
    for (const segment of segmentsOf(block.body)) {
      if ('server' in segment) {
        await stopServer();
        server = startBlockProcess('bash', ['-c', resolved(segment.server, context, gatewayUrl)], {
          cwd: ROOT,
          env: blockEnvironment(context, gatewayUrl),
        });
        gatewayUrl = (await whenOutput(server, SERVING))[1]!;
        if (DEMO_LINE.test(segment.server)) await whenOutput(server, DEMO_RUNNING);
        continue;
      }
      await runScript(resolved(segment.script, context, gatewayUrl), block, context, gatewayUrl);
    }
  } finally {
    await stopServer();
  }
}

function resolved(text: string, context: ShellContext, gatewayUrl: string): string {
  const values: PlaceholderValues = {
    gateway: new URL(gatewayUrl).host,
    agentToken: context.agentToken,
    approverToken: context.approverToken,
  };
  return resolvePlaceholders(text, values);
}

async function runScript(script: string, block: DocBlock, context: ShellContext, gatewayUrl: string) {
  const running = startBlockProcess('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: blockEnvironment(context, gatewayUrl),
  });
  const meanwhile = block.markers.meanwhile ? sendMeanwhile(block.markers.meanwhile, gatewayUrl) : undefined;
  try {
    const { untilPrinted } = block.markers;
    if (untilPrinted) {
      await whenOutput(running, new RegExp(escapeRegExp(untilPrinted)));
      const ended = await stopLikeCtrlC(running);
      // A pipeline's last command may die of the SIGINT rather than exit: the shell then ends by it too.
      expect(
        ended.code === 0 || ended.code === 130 || ended.signal === 'SIGINT',
        `Ctrl-C ended it ${JSON.stringify(ended)}:\n${running.output()}`,
      ).toBe(true);
      return;
    }
    const ended = await finished(running);
    expect(ended, `the block failed:\n${script}\n--- its output:\n${running.output()}`).toEqual({
      code: 0,
      signal: null,
    });
  } finally {
    meanwhile?.stop();
    if (running.child.exitCode === null && running.child.signalCode === null) await stopLikeCtrlC(running);
  }
}

/** Sends `document` to the gateway every interval until stopped; its answers are not the block's business. */
function sendMeanwhile(document: string, gatewayUrl: string): { stop(): void } {
  const send = () =>
    fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: document }),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  void send();
  const timer = setInterval(() => void send(), MEANWHILE_INTERVAL_MS);
  return { stop: () => clearInterval(timer) };
}

/**
 * A transcript: `$ command` lines, each followed by what it prints. The command runs (a gateway that would
 * start is stopped once ready); its output must hold every shown line, where `…` stands for any text.
 */
async function runTranscript(block: DocBlock, context: ShellContext): Promise<void> {
  const steps: { command: string; shown: string[] }[] = [];
  for (const line of block.body.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: [] });
    else if (line.trim()) steps.at(-1)!.shown.push(line);
  }
  for (const { command, shown } of steps) {
    const running = startBlockProcess('bash', ['-c', resolved(command, context, context.gatewayUrl)], {
      cwd: ROOT,
      env: blockEnvironment(context, context.gatewayUrl),
    });
    const pattern = new RegExp(shown.map((line) => line.split('…').map(escapeRegExp).join('.*')).join('\\n'));
    try {
      await whenOutput(running, pattern);
    } finally {
      if (running.child.exitCode === null && running.child.signalCode === null) await stopLikeCtrlC(running);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
