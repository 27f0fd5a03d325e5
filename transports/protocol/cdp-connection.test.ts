import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
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
  it('answers, and fails a call that gets no answer in time as a timeout naming the method', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    const { result } = await connection.send<{ result: { value: number } }>('Runtime.evaluate', {
      expression: '6 * 7',
      returnByValue: true,
    });
    expect(result.value).toBe(42);
    await expect(
      connection.send('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true }, 200),
    ).rejects.toMatchObject({
      kind: 'timeout',
      method: 'Runtime.evaluate',
      code: 'CDP_TIMEOUT',
      message: expect.stringContaining('Runtime.evaluate'),
    });
    await connection.close();
  });

  it('fails a method the other end refuses as a protocol error with its words', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    await expect(connection.send('Nothing.here')).rejects.toMatchObject({
      kind: 'protocol',
      method: 'Nothing.here',
      code: 'PROTOCOL_ERROR',
      message: expect.stringMatching(/^Nothing\.here: \S/),
    });
    await connection.close();
  });

  it('rejects every pending call at once as closed, naming its method, when the other end goes away', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    const closed = new Promise<string>((resolve) => connection.onClose(resolve));
    const hanging = { expression: 'new Promise(() => {})', awaitPromise: true };
    const pending = [
      connection.send('Runtime.evaluate', hanging),
      connection.send('Runtime.evaluate', hanging),
    ].map((call) =>
      call.then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    child?.kill('SIGKILL');
    // Rejected by the close, not left to run out their own deadline (that would be a timeout).
    for (const failure of await Promise.all(pending)) {
      expect(failure).toMatchObject({
        kind: 'closed',
        method: 'Runtime.evaluate',
        code: 'SESSION_NOT_RUNNING',
      });
    }
    expect(await closed).toContain('closed');
    await expect(connection.send('Runtime.enable')).rejects.toMatchObject({
      kind: 'closed',
      method: 'Runtime.enable',
      code: 'SESSION_NOT_RUNNING',
    });
  });

  it('rejects pending calls as closed when it is closed itself', async () => {
    const connection = await CdpConnection.open(await inspectorUrl(), 5_000);
    const pending = connection.send('Runtime.evaluate', {
      expression: 'new Promise(() => {})',
      awaitPromise: true,
    });
    const failure = expect(pending).rejects.toMatchObject({ kind: 'closed', method: 'Runtime.evaluate' });
    await connection.close();
    await failure;
  });

  it('fails to open an endpoint nothing listens on as unreachable', async () => {
    const port = await closedPort();
    await expect(CdpConnection.open(`ws://127.0.0.1:${port}/none`, 5_000)).rejects.toMatchObject({
      kind: 'unreachable',
      code: 'ATTACH_FAILED',
    });
  });
});

/** A loopback port that was free a moment ago: listened on, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
