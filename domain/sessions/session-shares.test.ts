import { describe, expect, it } from 'vitest';
import type { Session } from './session.js';
import { MAX_LIVE_SESSIONS, MAX_SESSIONS_PER_CLIENT, SessionShares } from './session-shares.js';

/** What the shares read of a session: whether it is still live. */
const session = () => ({ isLive: true }) as { isLive: boolean } & Session;

describe('SessionShares', () => {
  it("holds a client to its share while its sessions live, and another client's are its own", async () => {
    const shares = new SessionShares();
    expect(MAX_SESSIONS_PER_CLIENT).toBe(MAX_LIVE_SESSIONS / 4);
    const mine = [];
    for (let n = 0; n < MAX_SESSIONS_PER_CLIENT; n += 1)
      mine.push(await shares.create('agent-1', async () => session()));
    await expect(shares.create('agent-1', async () => session())).rejects.toMatchObject({
      code: 'CLIENT_LIMIT',
      details: { resource: 'sessions', share: 32, serverLimit: 128 },
    });
    await expect(shares.create('agent-2', async () => session())).resolves.toBeDefined();
    (mine[0] as { isLive: boolean }).isLive = false;
    await expect(shares.create('agent-1', async () => session())).resolves.toBeDefined();
  });

  it('counts a creation while it starts, and frees it when the creation fails or the session never lived', async () => {
    const shares = new SessionShares();
    let finish: () => void = () => {};
    const starting = Array.from({ length: MAX_SESSIONS_PER_CLIENT }, () =>
      shares.create(
        'agent-1',
        () =>
          new Promise<Session>((resolve) => {
            const previous = finish;
            finish = () => {
              previous();
              resolve(session());
            };
          }),
      ),
    );
    await expect(shares.create('agent-1', async () => session())).rejects.toMatchObject({
      code: 'CLIENT_LIMIT',
    });
    finish();
    await Promise.all(starting);
    const other = new SessionShares();
    for (let n = 0; n < MAX_SESSIONS_PER_CLIENT + 5; n += 1) {
      await expect(
        other.create('agent-1', async () => {
          throw new Error('the app did not start');
        }),
      ).rejects.toThrow('did not start');
      await other.create('agent-1', async () => ({ isLive: false }) as Session);
    }
    await expect(other.create('agent-1', async () => session())).resolves.toBeDefined();
  });

  it('refuses past the server limit with SESSION_LIMIT, whoever asks', async () => {
    const shares = new SessionShares();
    for (let n = 0; n < MAX_LIVE_SESSIONS; n += 1)
      await shares.create(`agent-${n % 4}`, async () => session());
    await expect(shares.create('agent-new', async () => session())).rejects.toMatchObject({
      code: 'SESSION_LIMIT',
    });
  });
});
