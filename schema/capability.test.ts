import { execute, parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { fakeTransport, fakeTransportSession } from '../test/helpers/fake-transport.js';
import type { Capability } from '../transports/contract/capabilities.js';
import { buildSchema } from './index.js';

async function setup(capabilities: Capability[]) {
  const session = fakeTransportSession();
  const hub = new EventHub<SessionTopics>();
  const sessions = new SessionRegistry(
    [
      fakeTransport('playwright-electron', ['LAUNCH', ...capabilities], session),
      fakeTransport('other', ['CONSOLE', 'WINDOWS']),
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
