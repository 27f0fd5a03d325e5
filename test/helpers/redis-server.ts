import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's redis-server; suites that need one report themselves skipped by name where it is missing. */
export const REDIS_SERVER = '/usr/bin/redis-server';
export const HAS_REDIS = existsSync(REDIS_SERVER);
/** A loaded machine starts it within seconds; this is the deadline, not the expectation. */
const READY_TIMEOUT_MS = 60_000;

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free loopback port (or `port`: the same one again, after a
 * restart), in a temporary folder, persisting nothing.
 */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'stagegraph-redis-'));
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    // A group of its own: a Ctrl-C meant for scripts/cluster-demo.ts must not stop it before the replicas.
    { stdio: ['ignore', 'pipe', 'ignore'], detached: true },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start: ${output}`)),
      READY_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited: ${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
