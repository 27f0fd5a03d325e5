import { execute, parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/sessions/session-event.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { type Capability, capabilityMatrix } from '../transports/contract/capabilities.js';
import type { LaunchTransport, TransportSession } from '../transports/contract/transport.js';
import { buildSchema } from './index.js';

function fakeSession(): TransportSession {
  return {
    pid: 4242,
    app: { name: 'fake', version: '1.0.0', executablePath: '/bin/fake', versions: {}, standIn: false },
    windows: vi.fn(async () => [{ id: 'w1', title: 'Fake', url: 'about:blank' }]),
    bounds: vi.fn(async () => null),
    focusedWindowId: vi.fn(async () => null),
    bringToFront: vi.fn(async () => {}),
    window: vi.fn(() => undefined),
    // Announces its window at once, as a launched app does, so the session turns RUNNING without waiting.
    onEvent: (listener) => {
      queueMicrotask(() =>
        listener({ type: 'window-opened', window: { id: 'w1', title: 'Fake', url: 'about:blank' } }),
      );
      return () => {};
    },
    stop: vi.fn(async () => ({ code: 0, signal: null })),
    forceKill: vi.fn(async () => ({ code: null, signal: 'SIGKILL' })),
    dispose: vi.fn(async () => {}),
  };
}

function fakeTransport(id: string, capabilities: Capability[], session: TransportSession): LaunchTransport {
  return {
    id: id as LaunchTransport['id'],
    description: `fake ${id}`,
    capabilities: capabilityMatrix(capabilities),
    launch: async () => session,
  };
}

async function setup(capabilities: Capability[]) {
  const session = fakeSession();
  const hub = new EventHub<SessionTopics>();
  const sessions = new SessionRegistry(
    [
      fakeTransport('playwright-electron', ['LAUNCH', ...capabilities], session),
      fakeTransport('other', ['CONSOLE', 'WINDOWS'], fakeSession()),
    ],
    hub,
  );
  await sessions.launch({ main: '/app/main.js' });
  vi.clearAllMocks();
  const run = (query: string) =>
    execute({ schema: buildSchema(), document: parse(query), contextValue: { sessions, hub } });
  return { session, run };
}

describe('capability gating', () => {
  it.each([
    ['WINDOWS', '{ session { windows { id } } }'],
    ['WINDOWS', '{ session { activeWindow { id } } }'],
    ['WINDOWS', 'mutation { switchWindow(window: { index: 0 }) { id } }'],
    ['CONSOLE', '{ session { console { total } } }'],
  ])('refuses a field needing %s before any transport call: %s', async (capability, query) => {
    const { session, run } = await setup([]);
    const result = await run(query);
    const error = result.errors?.[0];
    expect(error?.originalError).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    expect(error?.message).toContain(capability);
    expect(error?.message).toContain('other');
    expect(session.windows).not.toHaveBeenCalled();
    expect(session.bringToFront).not.toHaveBeenCalled();
  });

  it('lets the same fields through when the transport has the capability', async () => {
    const { session, run } = await setup(['WINDOWS', 'CONSOLE']);
    const result = await run('{ session { windows { id } console { total } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ session: { windows: [{ id: 'w1' }], console: { total: 0 } } });
    expect(session.windows).toHaveBeenCalled();
  });
});
