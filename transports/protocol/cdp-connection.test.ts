import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CdpConnection } from './cdp-connection.js';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** A Node process whose inspector speaks the same protocol framing as a browser's endpoint. */
async function inspectorUrl(): Promise<string> {
  child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve) => {
    let output = '';
    child?.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
}

describe('CdpConnection', () => {
  it('answers, and fails a call that gets no answer in time with CDP_TIMEOUT naming the method', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    const { result } = await connection.send<{ result: { value: number } }>('Runtime.evaluate', {
      expression: '6 * 7',
      returnByValue: true,
    });
    expect(result.value).toBe(42);
    await expect(
      connection.send('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true }, 200),
    ).rejects.toMatchObject({ code: 'CDP_TIMEOUT', message: expect.stringContaining('Runtime.evaluate') });
    await connection.close();
  });

  it('rejects pending calls and tells its listeners at once when the other end goes away', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    const closed = new Promise<string>((resolve) => connection.onClose(resolve));
    const pending = connection.send('Runtime.evaluate', {
      expression: 'new Promise(() => {})',
      awaitPromise: true,
    });
    child?.kill('SIGKILL');
    // Rejected by the close, not left to run out its own deadline: that one fails as CDP_TIMEOUT.
    const failure = await pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toMatchObject({ code: 'CDP_TIMEOUT' });
    expect(await closed).toContain('closed');
    await expect(connection.send('Runtime.enable')).rejects.toMatchObject({ code: 'SESSION_NOT_RUNNING' });
  });
});
