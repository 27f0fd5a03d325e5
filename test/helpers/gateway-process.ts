import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/stagegraph.js', import.meta.url));
/**
 * A quiet machine prints the URL within seconds, one at load 20 on two cores within a minute or so; at
 * load 40-60, 90 s was seen to pass. The deadline only keeps a gateway that never starts from hanging the
 * run: it stays just inside the suites' hook timeout (180 s), so the failure names the gateway's output.
 */
const START_TIMEOUT_MS = 170_000;

export interface GatewayProcess {
  readonly url: string;
  readonly wsUrl: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with how the server process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote to stderr so far. */
  readonly stderr: () => string;
}

/**
 * Starts `stagegraph serve` as a separate process, as a user would, and reads its URL from stderr.
 * `environment` is added to this process's own; `nodeArguments` go to node before the script (a test's
 * `--inspect`, for instance), not to the gateway.
 */
export async function serveInChild(
  args: readonly string[] = [],
  environment: NodeJS.ProcessEnv = {},
  nodeArguments: readonly string[] = [],
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...nodeArguments, BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // A folder of its own unless the test names one (flag or environment): the default ./.artifacts of the
    // clone holds one gateway's audit lock, and gateways of tests running at once would be refused.
    env: {
      ...process.env,
      STAGEGRAPH_ARTIFACTS: mkdtempSync(join(tmpdir(), 'stagegraph-served-')),
      ...environment,
    },
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), START_TIMEOUT_MS);
    const watch = () => {
      const match = /serving GraphQL at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stderr!.off('data', watch);
      resolve(match[1]!);
    };
    child.stderr!.on('data', watch);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it served: ${output}`));
    });
  });
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    child,
    pid: child.pid as number,
    exited,
    stderr: () => output,
  };
}

/** Resolves once the server has printed a line matching `pattern` (past or future output). */
export function whenPrinted(
  server: GatewayProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  const stderr = server.child.stderr!;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stderr.off('data', check);
      reject(new Error(`never printed ${pattern}: ${server.stderr()}`));
    }, timeoutMs);
    function check() {
      const match = pattern.exec(server.stderr());
      if (!match) return;
      clearTimeout(timer);
      stderr.off('data', check);
      resolve(match);
    }
    stderr.on('data', check);
    check();
  });
}
