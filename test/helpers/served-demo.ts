import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type GatewayProcess, serveInChild, whenPrinted } from './gateway-process.js';

/** Safety nets only: the demo launches within seconds on a quiet machine, a loaded one takes a minute. */
export const DEMO_READY_TIMEOUT_MS = 120_000;

export interface ServedDemo {
  readonly gateway: GatewayProcess;
  /** SIGTERM, then the folder removed; resolves with the gateway's exit code. */
  stop(): Promise<number | null>;
}

/** `stagegraph serve --demo` as a user starts it, in a folder of its own, once its session s1 runs. */
export async function serveDemo(name: string): Promise<ServedDemo> {
  const dir = await mkdtemp(join(tmpdir(), `stagegraph-${name}-`));
  const gateway = await serveInChild(['--demo', '--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
  await whenPrinted(gateway, /demo session s1 \(.*\) is RUNNING/, DEMO_READY_TIMEOUT_MS);
  return {
    gateway,
    async stop() {
      gateway.child.kill('SIGTERM');
      const { code } = await gateway.exited;
      await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command as a user would type it; a failure is its exit code and output, not a throw. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number },
): Promise<CommandResult> {
  return promisify(execFile)(command, [...args], options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}
