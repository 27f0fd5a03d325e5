// Issue 31: a client's regular expression ran on the gateway's one thread, on V8's backtracking engine, so
// `find(nameRegex: "(a+)+$")` against a long accessible name froze every client of the gateway for good.
// Patterns now run in a worker, on V8's linear-time engine where they can (transports/contract/
// client-pattern.ts, pattern-worker.ts): another client's `{ sessions { id } }` answers meanwhile, the
// catastrophic pattern answers data, and one the linear engine cannot run answers BAD_INPUT at its deadline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { gatewayClient, type LooseResponse } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/** A button named by a long run of `a` and a `!`: `(a+)+$` backtracks 2^NAME_LENGTH ways on it. */
const NAME_LENGTH = 20_000;
const PAGE = `data:text/html,<button>${'a'.repeat(NAME_LENGTH)}!</button><button>ok</button>`;
/** Waits that a working gateway meets in well under a second; a frozen one never does. */
const ANSWER_DEADLINE_MS = 60_000;

function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${ANSWER_DEADLINE_MS} ms`)),
      ANSWER_DEADLINE_MS,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

describe('a client’s regular expression against a long accessible name', () => {
  let gateway: GatewayProcess;
  let chromium: OutsideProcess;
  const artifacts = mkdtempSync(join(tmpdir(), 'client-pattern-'));

  beforeAll(async () => {
    chromium = await startDebuggableChromium(PAGE);
    gateway = await serveInChild(['--artifacts', artifacts]);
    const api = gatewayClient(gateway.url);
    await api.data(`mutation { attach(input: { port: ${chromium.port} }) { id } }`);
  }, 180_000);

  afterAll(async () => {
    // A gateway frozen by a pattern runs no shutdown: it is killed.
    gateway?.child.kill('SIGKILL');
    await gateway?.exited;
    await chromium?.kill();
    rmSync(artifacts, { recursive: true, force: true });
  });

  const find = (pattern: string) =>
    gatewayClient(gateway.url).send(
      `query ($pattern: String!) { session { window { find(role: "button", nameRegex: $pattern) { name } } } }`,
      { pattern },
    );

  it('does not stop another client’s queries, and a catastrophic pattern answers data', async () => {
    const catastrophic = find('(a+)+$');
    const others = await within(gatewayClient(gateway.url).send('{ sessions { id } }'), 'sessions');
    expect(others.errors).toBeUndefined();
    expect(others.data.sessions).toHaveLength(1);
    const found: LooseResponse = await within(catastrophic, 'find');
    expect(found.errors).toBeUndefined();
    expect(found.data.session.window.find).toEqual([]);
    // The linear engine still matches: `(a+)+!$` names the long button.
    const matched = await within(find('^(a+)+!$'), 'find');
    expect(matched.data.session.window.find.map((node: { name: string }) => node.name.length)).toEqual([
      NAME_LENGTH + 1,
    ]);
  });

  it('stops a pattern only a backtracking engine runs at its deadline, with BAD_INPUT', async () => {
    // A backreference keeps it off the linear engine; `(a+)+` before it backtracks for ever.
    const backtracking = find('^(a+)+(b)\\2$');
    const others = await within(gatewayClient(gateway.url).send('{ sessions { id } }'), 'sessions');
    expect(others.data.sessions).toHaveLength(1);
    const stopped: LooseResponse = await within(backtracking, 'find');
    expect(stopped.errors?.[0]?.extensions?.code).toBe('BAD_INPUT');
    expect(stopped.errors?.[0]?.message).toMatch(/nameRegex took more than/);
    // The worker that was stopped is replaced: the next pattern is matched.
    const next = await within(find('^ok$'), 'find');
    expect(next.data.session.window.find).toEqual([{ name: 'ok' }]);
  });
});
