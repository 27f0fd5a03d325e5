import { type ExecutionResult, parse, subscribe } from 'graphql';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import type { NetworkEntry } from '../domain/page-state/network-log.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { fakeTransport } from '../test/helpers/fake-transport.js';
import type { Capability } from '../transports/contract/capabilities.js';
import type { LaunchTransport } from '../transports/contract/transport-contract.js';
import { buildSchema } from './index.js';

const request = (sessionId: string, seq: number): NetworkEntry =>
  ({ seq, sessionId, url: `http://a.test/${sessionId}/${seq}`, method: 'GET' }) as NetworkEntry;

/** Two sessions: s1 on a transport without INTERCEPT, s2 on one with it. */
async function twoSessions(second: Capability[] = ['INTERCEPT', 'DIALOGS']) {
  const hub = new EventHub<SessionTopics>();
  const sessions = new SessionRegistry(
    [fakeTransport('playwright-electron', ['LAUNCH']), fakeTransport('cdp', ['LAUNCH', ...second])],
    hub,
  );
  await sessions.launch({ main: '/app/main.js' });
  await sessions.launch({ main: '/app/main.js', transport: 'cdp' as LaunchTransport['id'] });
  const schema = buildSchema();
  const open = (query: string) =>
    subscribe({ schema, document: parse(query), contextValue: { sessions, hub } }) as Promise<
      AsyncGenerator<ExecutionResult> | ExecutionResult
    >;
  return { hub, open };
}

describe('a capture subscription without `session`', () => {
  it('streams every session whose transport has the capability, and none that lacks it', async () => {
    const { hub, open } = await twoSessions();
    const stream = await open('subscription { network { entry { sessionId seq } } }');
    expect(Symbol.asyncIterator in stream).toBe(true);
    const iterator = stream as AsyncGenerator<ExecutionResult>;
    hub.publish('network', request('s1', 1));
    hub.publish('network', request('s2', 1));
    const first = await iterator.next();
    expect(first.value).toEqual({ data: { network: { entry: { sessionId: 's2', seq: 1 } } } });
    await iterator.return(undefined);
  });

  it('is still refused for a named session whose transport lacks it, before any stream opens', async () => {
    const { hub, open } = await twoSessions();
    const refused = (await open(
      'subscription { dialogs(session: "s1") { entry { seq } } }',
    )) as ExecutionResult;
    expect(refused.errors?.[0]?.originalError).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    expect(refused.errors?.[0]?.message).toContain('cdp');
    expect(hub.subscriberCount).toBe(0);
  });

  it('is refused when no transport of the server could ever feed it', async () => {
    const { hub, open } = await twoSessions(['DIALOGS']);
    const refused = (await open('subscription { network { entry { seq } } }')) as ExecutionResult;
    expect(refused.errors?.[0]?.originalError).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    expect(refused.errors?.[0]?.message).toContain('No transport of this server has INTERCEPT');
    expect(hub.subscriberCount).toBe(0);
  });
});
