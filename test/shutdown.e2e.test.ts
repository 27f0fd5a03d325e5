import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LaunchDocument, SessionsDocument } from './generated/graphql.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { http } from './helpers/gateway.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
let server: ChildProcess | undefined;

afterEach(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
});

/** Starts `stagegraph serve` as a separate process, as a user would, and reads its URL from stderr. */
async function serve(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server = child;
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving GraphQL at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { url, child };
}

describe('server shutdown', () => {
  it('on SIGTERM stops both sessions and exits, leaving no Chromium or stand-in process behind', async () => {
    const { url, child } = await serve();
    const launched = await Promise.all([
      http(url, LaunchDocument, { input: fixtureLaunch() }),
      http(url, LaunchDocument, { input: fixtureLaunch() }),
    ]);
    const pids = launched.map((response) => response.data!.launch.pid!);
    const sessions = await http(url, SessionsDocument);
    expect(sessions.data?.sessions.map((session) => session.status)).toEqual(['RUNNING', 'RUNNING']);
    for (const pid of pids) expect(livingGroupMembers(pid).length).toBeGreaterThan(1);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    await expectGroupsGone(pids, 2_000);
  });

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
