import { describe, expect, it, vi } from 'vitest';
import { fakeTransport, fakeTransportSession } from '../../test/helpers/fake-transport.js';
import type { WindowDriver } from '../../transports/contract/window-driver.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { SessionRegistry } from './session-registry.js';
import { awaitWindowsLoaded, WINDOW_LOAD_WAIT_MS } from './window-load.js';

/** A session whose one window's document reaches DOMContentLoaded, or not, as `loads` says. */
async function sessionWith(loads: boolean, capabilities: Parameters<typeof fakeTransport>[1]) {
  const waitForLoad = vi.fn(async () => loads);
  const driver = { waitForLoad } as unknown as WindowDriver;
  const transport = fakeTransportSession({ window: () => driver });
  const sessions = new SessionRegistry(
    [fakeTransport('playwright-electron', capabilities, transport)],
    new EventHub<SessionTopics>(),
  );
  const session = await sessions.launch({ main: '/app/main.js' });
  return { session, waitForLoad };
}

describe('a new session is handed over once its windows have parsed their documents', () => {
  it('waits for DOMContentLoaded in each window, bounded, as launch does before returning', async () => {
    const { session, waitForLoad } = await sessionWith(true, ['LAUNCH', 'SNAPSHOT']);
    expect(waitForLoad).toHaveBeenCalledWith('DOMCONTENTLOADED', WINDOW_LOAD_WAIT_MS);
    expect(await awaitWindowsLoaded(session, 10)).toEqual([]);
  });

  it('names the windows still loading when the bound ran out, and hands the session over anyway', async () => {
    const { session } = await sessionWith(false, ['LAUNCH', 'SNAPSHOT']);
    expect(session.status).toBe('RUNNING');
    expect(await awaitWindowsLoaded(session, 10)).toEqual(['w1']);
  });

  it('does not ask a session that cannot read its renderer', async () => {
    const { waitForLoad } = await sessionWith(true, ['LAUNCH']);
    expect(waitForLoad).not.toHaveBeenCalled();
  });
});
