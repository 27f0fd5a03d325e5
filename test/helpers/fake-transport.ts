import { vi } from 'vitest';
import { type Capability, capabilityMatrix } from '../../transports/contract/capabilities.js';
import type { LaunchTransport, TransportSession } from '../../transports/contract/transport-contract.js';
import type { WindowInfo } from '../../transports/contract/transport-events.js';

/** The one window a fake session has. */
const FAKE_WINDOW: WindowInfo = { id: 'w1', title: 'Fake', url: 'about:blank' };

/**
 * A transport session with no app behind it, for unit tests of the layers above the contract: every call
 * is a spy, so a test can tell which ones a refused field never made. `parts` adds seams (network,
 * storage, clock, ...) or replaces any member.
 */
export function fakeTransportSession(parts: Partial<TransportSession> = {}): TransportSession {
  return {
    pid: 4242,
    app: { name: 'fake', version: '1.0.0', executablePath: '/bin/fake', versions: {}, standIn: false },
    windows: vi.fn(async () => [FAKE_WINDOW]),
    bounds: vi.fn(async () => null),
    focusedWindowId: vi.fn(async () => null),
    bringToFront: vi.fn(async () => {}),
    window: vi.fn(() => undefined),
    // Announces its window at once, as a launched app does, so the session turns RUNNING without waiting.
    events: {
      subscribe: (subscribers) => {
        queueMicrotask(() => {
          for (const handlers of subscribers)
            handlers['window-opened']?.({ type: 'window-opened', window: FAKE_WINDOW });
        });
        return () => {};
      },
    },
    stop: vi.fn(async () => ({ code: 0, signal: null })),
    forceKill: vi.fn(async () => ({ code: null, signal: 'SIGKILL' })),
    dispose: vi.fn(async () => {}),
    ...parts,
  };
}

/** A transport with these capabilities whose launch returns `session`, or a fresh fake one each time. */
export function fakeTransport(
  id: string,
  capabilities: readonly Capability[],
  session?: TransportSession,
): LaunchTransport {
  return {
    id: id as LaunchTransport['id'],
    description: `fake ${id}`,
    capabilities: capabilityMatrix([...capabilities]),
    launch: async () => session ?? fakeTransportSession(),
  };
}
