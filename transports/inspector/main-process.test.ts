import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InjectDeadline } from './inject-deadline.js';
import { MainProcess } from './main-process.js';

/** A plain Node process with its inspector open on a port of its choosing. */
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
});
afterAll(() => {
  child?.kill('SIGKILL');
});

describe('MainProcess', () => {
  it('refuses an inspector that belongs to another process than the pid asked for', async () => {
    const wrong = (child.pid as number) + 1;
    await expect(MainProcess.connect(url, new InjectDeadline(wrong, 30_000))).rejects.toMatchObject({
      code: 'INJECT_FAILED',
      message: expect.stringContaining(`belongs to pid ${child.pid}`),
    });
  });

  it('connects to the right one; a plain Node process has no Electron API but runs shipped source', async () => {
    const main = await MainProcess.connect(url, new InjectDeadline(child.pid as number, 30_000));
    expect(main.electron).toBe(false);
    expect(await main.run<number>('(electron, arg) => (electron === null ? arg * 2 : -1)', 21)).toBe(42);
    // Source that throws in the app is a protocol failure of Runtime.evaluate, in the app's words only.
    await expect(main.run('() => { throw new TypeError("nope") }')).rejects.toMatchObject({
      kind: 'protocol',
      method: 'Runtime.evaluate',
      code: 'PROTOCOL_ERROR',
      message: 'Runtime.evaluate: TypeError: nope',
    });
    await main.release(false);
    expect(main.closed).toBe(true);
  });
});
