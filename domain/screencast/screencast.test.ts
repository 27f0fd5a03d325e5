import { describe, expect, it } from 'vitest';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { Session } from '../sessions/session.js';
import {
  MAX_PRODUCERS_PER_CLIENT,
  MAX_PRODUCERS_PER_SESSION,
  MAX_VIEWERS_PER_CLIENT,
  MAX_VIEWERS_PER_PRODUCER,
  screencast,
} from './screencast.js';

/** A session with one window whose live view starts at once and never sends a frame. */
function fakeSession(): Session {
  const driver = { startScreencast: async () => ({ stop: async () => {} }) };
  return {
    id: 's1',
    transportId: 'cdp',
    window: async () => ({ window: { id: 'w1' }, driver }),
    hasWindow: () => true,
  } as unknown as Session;
}

describe('screencast', () => {
  const hub = new EventHub<SessionTopics>();

  it('holds a client to a quarter of the viewers of a screencast, while another client still joins', async () => {
    const session = fakeSession();
    const connection = {};
    const slots = [];
    for (let n = 0; n < MAX_VIEWERS_PER_CLIENT; n += 1)
      slots.push(await screencast(session, hub, {}, [connection]));
    expect(MAX_VIEWERS_PER_CLIENT).toBe(MAX_VIEWERS_PER_PRODUCER / 4);
    await expect(screencast(session, hub, {}, [connection])).rejects.toMatchObject({
      code: 'CLIENT_LIMIT',
      details: { resource: 'viewers of this screencast', share: MAX_VIEWERS_PER_CLIENT },
    });
    slots.push(await screencast(session, hub, {}, [{}]));
    slots[0]?.close();
    slots.push(await screencast(session, hub, {}, [connection]));
    for (const slot of slots) slot.close();
  });

  it('holds a client to a quarter of the screencasts a session runs, a token across its connections', async () => {
    const session = fakeSession();
    const started = [];
    for (let fps = 1; fps <= MAX_PRODUCERS_PER_CLIENT; fps += 1)
      started.push(await screencast(session, hub, { maxFps: fps }, [{}, 'agent-1']));
    expect(MAX_PRODUCERS_PER_CLIENT).toBe(MAX_PRODUCERS_PER_SESSION / 4);
    await expect(screencast(session, hub, { maxFps: 9 }, [{}, 'agent-1'])).rejects.toMatchObject({
      code: 'CLIENT_LIMIT',
    });
    // Joining one that runs starts nothing: it is a viewer's share, not a screencast's.
    started.push(await screencast(session, hub, { maxFps: 1 }, [{}, 'agent-1']));
    started.push(await screencast(session, hub, { maxFps: 9 }, [{}, 'agent-2']));
    for (const slot of started) slot.close();
    started.length = 0;
    started.push(await screencast(session, hub, { maxFps: 9 }, [{}, 'agent-1']));
    for (const slot of started) slot.close();
  });
});
