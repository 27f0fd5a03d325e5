import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LaunchDocument, SessionsDocument } from './generated/graphql.js';
import { type OutsideProcess, startNodeOutside } from './helpers/debuggable.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { http, wsRequest } from './helpers/gateway.js';
import { serveInChild } from './helpers/gateway-process.js';
import {
  childrenOf,
  expectGroupsGone,
  isAlive,
  livingGroupMembers,
  signalEach,
} from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
/** A gateway that has not exited this long after SIGTERM is hung; a safety net, not a target. */
const EXIT_SAFETY_NET_MS = 90_000;
let server: ChildProcess | undefined;
let target: OutsideProcess | undefined;

afterEach(async () => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  if (target) signalEach([target.pid], 'SIGCONT');
  await target?.kill();
  target = undefined;
});

/** Linux numbers SIGUSR1 10: bit 9 of the pending-signal masks in /proc/<pid>/status. */
function hasPendingSigusr1(pid: number): boolean {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return ['SigPnd', 'ShdPnd'].some((field) => {
    const mask = new RegExp(`^${field}:\\s*(\\S+)$`, 'm').exec(status)?.[1] ?? '0';
    return ((BigInt(`0x${mask}`) >> 9n) & 1n) === 1n;
  });
}

/** Starts `stagegraph serve` as a separate process, as a user would. */
async function serve(environment: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess }> {
  const gateway = await serveInChild([], environment);
  server = gateway.child;
  return { url: gateway.url, child: gateway.child };
}

describe('server shutdown', () => {
  it('on SIGTERM stops both sessions and exits, leaving no Chromium or stand-in process behind, nor files', async () => {
    // A temporary folder of its own, to see what the gateway leaves there.
    const temporary = mkdtempSync(join(tmpdir(), 'stagegraph-shutdown-'));
    const { url, child } = await serve({ TMPDIR: temporary });
    const launched = await Promise.all([
      http(url, LaunchDocument, { input: fixtureLaunch() }),
      http(url, LaunchDocument, { input: { ...fixtureLaunch(), instrumentNative: true } }),
    ]);
    const pids = launched.map((response) => response.data!.launch!.pid!);
    const sessions = await http(url, SessionsDocument);
    expect(sessions.data?.sessions.map((session) => session.status)).toEqual(['RUNNING', 'RUNNING']);
    for (const pid of pids) expect(livingGroupMembers(pid).length).toBeGreaterThan(1);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    await expectGroupsGone(pids, 2_000);
    // The instrumented launch's preload folder went with its app, though the gateway exited right after.
    expect(readdirSync(temporary).filter((name) => name.startsWith('stagegraph-'))).toEqual([]);
    rmSync(temporary, { recursive: true, force: true });
  });

  it('on SIGTERM while an inject hangs on a stopped process: exits within its bound, owning nothing', async () => {
    target = await startNodeOutside(
      ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'],
      /Debugger listening on ws:/,
    );
    signalEach([target.pid], 'SIGSTOP');
    const gateway = await serveInChild();
    server = gateway.child;
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      onNonLazyError: () => {},
    });
    // The longest inject there is: only the shutdown's own bound can end it in time.
    const inject = wsRequest(
      client,
      parse(`mutation { inject(input: { pid: ${target.pid}, timeoutMs: 120000 }) { id } }`),
    ).catch((error: unknown) => error);
    // The stopped process holds the SIGUSR1 the inject sent it: the inject waits for its inspector.
    await expect.poll(() => hasPendingSigusr1(target!.pid), { timeout: 60_000 }).toBe(true);
    gateway.child.kill('SIGTERM');
    const exit = await Promise.race([
      gateway.exited,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no exit after SIGTERM:\n${gateway.stderr().slice(-3000)}`)),
          EXIT_SAFETY_NET_MS,
        ),
      ),
    ]);
    // Orderly: the inject was abandoned, not cut off by the shutdown's last-resort bound.
    expect(exit, gateway.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
    const answer = (await inject) as { errors?: { extensions: { code: string }; message: string }[] };
    // The answer may be lost with the closing socket; if it came, it says why.
    if (answer?.errors) {
      expect(answer.errors[0]).toMatchObject({
        extensions: { code: 'INJECT_FAILED' },
        message: expect.stringContaining('shutting down'),
      });
    }
    await client.dispose();
    expect(childrenOf(gateway.pid)).toEqual([]);
    // The app it never got into is untouched: resumed, it runs on.
    signalEach([target.pid], 'SIGCONT');
    expect(isAlive(target.pid)).toBe(true);
  }, 180_000);

  it('refuses a non-loopback bind without a token and exits with usage', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--host', '0.0.0.0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toMatch(/Refusing to bind 0\.0\.0\.0 without a token/);
    expect(stderr).toMatch(/--token/);
  });
});
