import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClickDocument,
  ConsoleEventsDocument,
  createStagegraphClient,
  OutlineDocument,
  SessionsDocument,
  type StagegraphClient,
  StagegraphClientError,
} from '../clients/typescript/src/index.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

const TOKEN = 'typescript-client-e2e-token';

let gateway: RunningGateway;
let client: StagegraphClient;
let session: string;

beforeAll(async () => {
  gateway = await startGateway({ token: TOKEN, policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 });
  client = createStagegraphClient({ url: gateway.url, token: TOKEN });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await gateway?.stop();
});

/** The error a call threw, so its fields can be asserted. */
async function thrown(call: Promise<unknown>): Promise<StagegraphClientError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StagegraphClientError);
  return error as StagegraphClientError;
}

describe('the typed TypeScript client (clients/typescript) against a running gateway', () => {
  it('sends its token over HTTP and WebSocket: without it the gateway refuses with a typed error', async () => {
    const anonymous = createStagegraphClient({ url: gateway.url });
    const error = await thrown(anonymous.request(SessionsDocument));
    expect(error.code).toBe('UNAUTHENTICATED');
    const refused = await thrown(anonymous.subscribe(ConsoleEventsDocument).next());
    expect(refused.code).toBe('UNAUTHENTICATED');
    await anonymous.close();
    expect(await client.request(SessionsDocument)).toEqual({ sessions: [] });
  });

  it('launches the fixture app and reads its outline', { timeout: 120_000 }, async () => {
    const launched = await client.launch(fixtureLaunch());
    expect(launched.status).toBe('RUNNING');
    expect(launched.app.standIn).toBe(true);
    session = launched.id;
    const { sessions } = await client.request(SessionsDocument);
    expect(sessions.map((listed) => listed.id)).toEqual([session]);
    const read = await client.request(OutlineDocument, { session, interactiveOnly: true });
    expect(read.session?.activeWindow?.snapshot.outline).toMatch(/button "Submit"/);
  });

  it('fills, clicks and expects in ONE multi-step operation, then expects again', async () => {
    const result = await client.act(session, [
      { fill: { target: { testId: 'name' }, value: 'Ada' } },
      { click: { target: { testId: 'submit' } } },
      { expect: { kind: 'TEXT', target: { testId: 'status' }, contains: 'Submitted: Ada' } },
    ]);
    expect(result.ok).toBe(true);
    expect(result.steps.map((step) => [step.kind, step.ok])).toEqual([
      ['fill', true],
      ['click', true],
      ['expect', true],
    ]);
    expect(result.steps[1]?.target?.name).toBe('Submit');
    expect(result.steps[2]?.actual).toBe('Submitted: Ada');
    expect(typeof result.diff).toBe('string');
    const again = await client.expect({
      session,
      kind: 'TEXT',
      target: { testId: 'status' },
      equals: 'Submitted: Ada',
    });
    expect(again.actual).toBe('Submitted: Ada');
  });

  it('delivers the console line a click logs through a graphql-ws subscription', async () => {
    // replay: the entry is delivered even when the click's log lands before the subscription is in place.
    const events = client.subscribe(ConsoleEventsDocument, {
      session,
      textContains: 'fixture: button clicked',
      replay: true,
    });
    const first = events.next();
    await client.request(ClickDocument, { session, target: { testId: 'log' } });
    const event = await first;
    expect(event.done).toBe(false);
    expect(event.value?.console.entry).toMatchObject({ sessionId: session, text: 'fixture: button clicked' });
    await events.return?.();
  });

  it('throws a typed error with its code, hint and next actions', async () => {
    const error = await thrown(
      client.request(ClickDocument, { session, target: { testId: 'no-such-element' }, timeoutMs: 500 }),
    );
    expect(error.code).toBe('SELECTOR_NO_MATCH');
    expect(error.hint).toBeTruthy();
    expect(error.nextActions.length).toBeGreaterThan(0);
    expect(error.path).toEqual(['click']);
  });

  it('answers every step of a failed act: the failed one, and those skipped after it', async () => {
    const result = await client.act(session, [
      { click: { target: { testId: 'no-such-element' }, timeoutMs: 500 } },
      { fill: { target: { testId: 'name' }, value: 'never typed' } },
    ]);
    expect(result.ok).toBe(false);
    expect(result.failure?.index).toBe(0);
    expect(result.failure?.error?.code).toBe('SELECTOR_NO_MATCH');
    expect(result.failure?.error?.nextActions.length).toBeGreaterThan(0);
    expect(result.steps[1]?.error?.code).toBe('STEP_SKIPPED');
  });

  it('stops the app', async () => {
    expect(await client.stop(session)).toEqual({ id: session, status: 'STOPPED' });
  });
});
