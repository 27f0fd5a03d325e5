import { describe, expect, it, vi } from 'vitest';
import type { Session } from '../../sessions/session.js';
import type { SessionRegistry } from '../../sessions/session-registry.js';
import { previewOperation } from './target-preview.js';

const LISTED = { id: 'w1', title: 'Listed earlier', url: 'https://app.test/', sessionId: 's1' };

/** A live session with one window whose page now says `title`. */
function sessionShowing(title: string) {
  const currentWindow = vi.fn(async () => ({ ...LISTED, title }));
  const session = {
    id: 's1',
    isLive: true,
    app: { name: 'app', executablePath: '/opt/app' },
    launch: { main: null },
    window: async () => ({ window: LISTED, driver: {} }),
    currentWindow,
  } as unknown as Session;
  const sessions = { get: () => session } as unknown as SessionRegistry;
  return { sessions, currentWindow };
}

describe('previewOperation of a read on a window', () => {
  it("shows the policy the window's title as its page says it now", async () => {
    const { sessions, currentWindow } = sessionShowing('Now');
    const preview = await previewOperation(sessions, { actsOnSession: true, sessionId: 's1', window: 'w1' });
    expect(preview.session?.windowTitle).toBe('Now');
    expect(currentWindow).toHaveBeenCalledTimes(1);
  });

  it('takes the title the same operation just described, without asking the page again', async () => {
    const { sessions, currentWindow } = sessionShowing('Now');
    const described = { ...LISTED, title: 'Described by this operation' };
    const preview = await previewOperation(sessions, {
      actsOnSession: true,
      sessionId: 's1',
      window: 'w1',
      described,
    });
    expect(preview.session?.windowTitle).toBe('Described by this operation');
    expect(currentWindow).not.toHaveBeenCalled();
  });

  it('asks the page when what was described is another window', async () => {
    const { sessions, currentWindow } = sessionShowing('Now');
    const preview = await previewOperation(sessions, {
      actsOnSession: true,
      sessionId: 's1',
      window: 'w1',
      described: { ...LISTED, id: 'w2', title: 'Another window' },
    });
    expect(preview.session?.windowTitle).toBe('Now');
    expect(currentWindow).toHaveBeenCalledTimes(1);
  });
});
