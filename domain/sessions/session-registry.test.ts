import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { fakeTransport, fakeTransportSession } from '../../test/helpers/fake-transport.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { SessionRegistry } from './session-registry.js';

describe('a session named by a blank id', () => {
  // Found by the schema fuzz (issue 31): forceKill(id: "") read the empty id as no id and killed the only
  // live session — the demo — which its caller never named.
  it.each(['', ' ', '\t\n'])(
    'is refused with BAD_INPUT (%j), and the only live session is left alone',
    async (id) => {
      const app = fakeTransportSession();
      const sessions = new SessionRegistry(
        [fakeTransport('playwright-electron', ['LAUNCH'], app)],
        new EventHub<SessionTopics>(),
      );
      const only = await sessions.launch({ main: '/app/main.js' });
      for (const call of [() => sessions.forceKill(id), () => sessions.stop(id), () => sessions.detach(id)]) {
        const error = await call().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(StagegraphError);
        expect((error as StagegraphError).code).toBe('BAD_INPUT');
      }
      expect(() => sessions.get(id)).toThrow(/cannot be blank/);
      expect(app.forceKill).not.toHaveBeenCalled();
      expect(app.stop).not.toHaveBeenCalled();
      expect(only.isLive).toBe(true);
      expect(sessions.get()).toBe(only);
    },
  );
});
