import { execute, parse, subscribe } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { ClusterEvents } from '../domain/cluster/cluster-events.js';
import { RemoteSession } from '../domain/cluster/remote-session.js';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { fakeTransport, fakeTransportSession } from '../test/helpers/fake-transport.js';
import { MemoryStreams, writingBoot } from '../test/helpers/memory-streams.js';
import type { Capability } from '../transports/contract/capabilities.js';
import { buildSchema } from './index.js';

/** A transport session whose every capture seam is a spy, so a refused field is seen to call none. */
function fakeSession() {
  const seams = {
    network: {
      arm: vi.fn(async () => {}),
      disarm: vi.fn(async () => {}),
      stub: vi.fn(),
      unstub: vi.fn(async () => undefined),
      stubs: vi.fn(() => []),
      droppedInFlight: 0,
      problems: vi.fn(() => ({ problems: [], overflowed: 0 })),
    },
    dialogs: { decideWith: vi.fn() },
    storage: {
      cookies: vi.fn(async () => []),
      setCookies: vi.fn(async () => {}),
      clearCookies: vi.fn(async () => {}),
      origins: vi.fn(async () => []),
      webStorage: vi.fn(async () => []),
    },
    clock: {
      install: vi.fn(async () => {}),
      setFixedTime: vi.fn(async () => {}),
      setSystemTime: vi.fn(async () => {}),
      advance: vi.fn(async () => {}),
      runFor: vi.fn(async () => {}),
      pauseAt: vi.fn(async () => {}),
      resume: vi.fn(async () => {}),
      now: vi.fn(async () => null),
    },
  };
  return { session: fakeTransportSession(seams), seams };
}

async function setup(capabilities: Capability[]) {
  const { session, seams } = fakeSession();
  const hub = new EventHub<SessionTopics>();
  const sessions = new SessionRegistry(
    [
      fakeTransport('playwright-electron', ['LAUNCH', ...capabilities], session),
      fakeTransport('capturing', ['INTERCEPT', 'DIALOGS', 'STORAGE', 'CLOCK']),
    ],
    hub,
  );
  await sessions.launch({ main: '/app/main.js' });
  vi.clearAllMocks();
  const schema = buildSchema();
  const run = (query: string) => execute({ schema, document: parse(query), contextValue: { sessions, hub } });
  const calls = () =>
    Object.values(seams).flatMap((seam) =>
      Object.values(seam).flatMap((spy) => (typeof spy === 'function' ? spy.mock.calls : [])),
    );
  return { run, calls, sessions, hub };
}

describe('capture capability gating', () => {
  it.each([
    ['INTERCEPT', '{ session { network { total } } }'],
    ['INTERCEPT', '{ session { networkStubs { id } } }'],
    ['INTERCEPT', 'mutation { startNetworkCapture { id } }'],
    ['INTERCEPT', 'mutation { stubNetwork(input: { pattern: "*", abort: true }) { id } }'],
    ['INTERCEPT', 'mutation { unstubNetwork(stub: "stub1") { id } }'],
    ['DIALOGS', '{ session { dialogs { total } } }'],
    ['DIALOGS', 'mutation { setDialogPolicy(default: ACCEPT) { default } }'],
    ['STORAGE', '{ session { cookies { name } } }'],
    ['STORAGE', '{ session { storage(origin: "http://a.test") { origin } } }'],
    [
      'STORAGE',
      'mutation { setStorageItem(origin: "http://a.test", area: LOCAL, key: "k", value: "v") { key } }',
    ],
    ['STORAGE', 'mutation { clearCookies }'],
    ['CLOCK', '{ session { clock { installed } } }'],
    ['CLOCK', 'mutation { installClock { installed } }'],
    ['CLOCK', 'mutation { runClockFor(ms: 10) { installed } }'],
  ])('refuses a field needing %s before any transport call: %s', async (capability, query) => {
    const { run, calls } = await setup([]);
    const result = await run(query);
    const error = result.errors?.[0];
    expect(error?.originalError).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    expect(error?.message).toContain(capability);
    expect(error?.message).toContain('capturing');
    expect(calls()).toEqual([]);
  });

  it('lets them through, to the transport, when the transport has the capability', async () => {
    const { run, calls } = await setup(['INTERCEPT', 'DIALOGS', 'STORAGE', 'CLOCK']);
    const result = await run(
      '{ session { network { total } cookies { name } clock { installed } dialogs { total } } }',
    );
    expect(result.errors).toBeUndefined();
    expect(calls().length).toBeGreaterThan(0);
  });

  it('shows the capability each field needs in the SDL', async () => {
    const { printSchemaWithDirectives } = await import('@graphql-tools/utils');
    const sdl = printSchemaWithDirectives(buildSchema());
    expect(sdl).toMatch(/stubNetwork\([^)]*\): NetworkStub @requiresCapability\(capability: INTERCEPT\)/s);
    expect(sdl).toMatch(/installClock\([^)]*\): Clock @requiresCapability\(capability: CLOCK\)/s);
  });

  it("gates a subscription to another replica's session on its transport, as the directory records it", async () => {
    const { sessions, hub } = await setup([]);
    const remote = (transportId: string) =>
      new RemoteSession(
        {
          id: 'b-s1',
          replicaId: 'b',
          epoch: 1,
          status: 'RUNNING',
          transportId,
          startedAt: new Date(0),
          endedAt: null,
        },
        undefined,
      );
    let transport = 'playwright-electron';
    const cluster = {
      session: async () => remote(transport),
      onLost: () => () => {},
      replica: () => undefined,
      ...writingBoot('a'),
      assertServing: () => {},
    };
    const clusterEvents = new ClusterEvents(new MemoryStreams(), hub, cluster, () => {});
    const network = () =>
      subscribe({
        schema: buildSchema(),
        document: parse('subscription { network(session: "b-s1") { cursor } }'),
        contextValue: { sessions, hub, cluster, clusterEvents },
      });
    const refused = await network();
    expect('errors' in refused && refused.errors?.[0]?.originalError).toMatchObject({
      code: 'CAPABILITY_UNSUPPORTED',
    });
    transport = 'capturing';
    const reading = await network();
    expect(Symbol.asyncIterator in reading).toBe(true);
    await (reading as AsyncIterableIterator<unknown>).return?.();
  });
});
