import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionsDocument } from './generated/graphql.js';
import { type OutsideProcess, startNodeOutside } from './helpers/debuggable.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { isAlive, signalEach } from './helpers/processes.js';

const MUTE_INSPECTOR = fileURLToPath(
  new URL('../fixtures/mute-inspector/mute-inspector.cjs', import.meta.url),
);
/** Ignores SIGUSR1: the signal that opens a Node inspector never does. */
const DEAF_TO_SIGUSR1 =
  "process.on('SIGUSR1', () => {}); setInterval(() => {}, 1000); process.stdout.write('ready\\n');";

describe('inject gives up on a process that never answers, with INJECT_TIMEOUT naming the step', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let target: OutsideProcess | undefined;

  beforeAll(async () => {
    gateway = await startGateway();
    api = gatewayClient(gateway.url);
  });
  afterEach(async () => {
    if (target) signalEach([target.pid], 'SIGCONT');
    await target?.kill();
    target = undefined;
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const injectInto = (pid: number, timeoutMs: number) =>
    api.failure(`mutation { inject(input: { pid: ${pid}, timeoutMs: ${timeoutMs} }) { id } }`);

  it('a process whose inspector never opens (SIGUSR1 ignored): the wait for the inspector times out', async () => {
    target = await startNodeOutside(['-e', DEAF_TO_SIGUSR1], /ready/);
    const failure = await injectInto(target.pid, 2_000);
    expect(failure).toMatchObject({
      code: 'INJECT_TIMEOUT',
      retryable: true,
      message: expect.stringContaining('waiting for its inspector to open after SIGUSR1'),
    });
    expect(failure.hint).toMatch(/stopped or paused/);
    expect(isAlive(target.pid)).toBe(true);
  });

  it('an inspector that accepts the websocket and answers nothing: the first call times out, the server serves meanwhile', async () => {
    target = await startNodeOutside([MUTE_INSPECTOR], /ready/);
    const mute = target;
    let settled = false;
    const inject = injectInto(mute.pid, 30_000).finally(() => {
      settled = true;
    });
    await expect.poll(() => mute.output(), { timeout: 60_000 }).toMatch(/websocket connected/);
    // Another client is answered while the inject waits on the mute inspector.
    const { sessions } = await api.data(SessionsDocument);
    expect(sessions).toEqual([]);
    expect(settled).toBe(false);
    expect(await inject).toMatchObject({
      code: 'INJECT_TIMEOUT',
      message: expect.stringContaining('checking whose inspector answered'),
    });
    expect(isAlive(mute.pid)).toBe(true);
  });

  it('a stopped process (SIGSTOP) with its inspector open: inject times out and leaves no session', async () => {
    target = await startNodeOutside(
      ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'],
      /Debugger listening on ws:/,
    );
    signalEach([target.pid], 'SIGSTOP');
    expect(await injectInto(target.pid, 3_000)).toMatchObject({ code: 'INJECT_TIMEOUT' });
    const { sessions } = await api.data(SessionsDocument);
    expect(sessions).toEqual([]);
  });
});
