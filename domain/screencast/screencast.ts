import { StagegraphError } from '../../errors/stagegraph-error.js';
import { type ClientKey, clientLimit } from '../bounded/client-shares.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { sessionActions } from '../sessions/next-actions.js';
import type { Session } from '../sessions/session.js';
import type { SessionEvent, SessionEventType } from '../sessions/session-event.js';
import { type ScreencastFrame, ScreencastProducer } from './screencast-producer.js';
import { type ScreencastRequest, screencastOptions } from './screencast-request.js';

export type { ScreencastFrame, ScreencastRequest };

/** Viewers one producer serves at most; each holds a frame and a socket's worth of sending. */
export const MAX_VIEWERS_PER_PRODUCER = 100;
/** Producers one session runs at most: each is a screencast or a capture loop in the app or the X server. */
export const MAX_PRODUCERS_PER_SESSION = 16;
/**
 * A quarter of each, for one client (schema/client-keys.ts): whoever starts four screencasts of a session,
 * or watches one 25 times, leaves the rest to others.
 */
export const MAX_PRODUCERS_PER_CLIENT = MAX_PRODUCERS_PER_SESSION / 4;
export const MAX_VIEWERS_PER_CLIENT = MAX_VIEWERS_PER_PRODUCER / 4;

/** The session events after which a session's windows show nothing more. */
const SESSION_ENDINGS: ReadonlySet<SessionEventType> = new Set([
  'STOPPED',
  'EXITED',
  'CRASHED',
  'DISCONNECTED',
  'DETACHED',
]);

/** The running producers of each session, by window and options; gone with the session object. */
const producersOf = new WeakMap<Session, Map<string, ScreencastProducer>>();
/** Who started each producer, and who watches it through which slot: counted against their shares. */
const startedBy = new WeakMap<ScreencastProducer, readonly ClientKey[]>();
const viewersOf = new WeakMap<
  ScreencastProducer,
  Map<SubscriberQueue<ScreencastFrame>, readonly ClientKey[]>
>();

/**
 * A viewer's stream of a window's live view (default: the session's active window). Viewers asking for the
 * same window with the same options share one producer; the stream ends when the window closes or the
 * session ends, and fails at once (before any frame) on bad options or a window with no live view.
 */
export async function screencast(
  session: Session,
  hub: EventHub<SessionTopics>,
  request: ScreencastRequest,
  client: readonly ClientKey[],
): Promise<SubscriberQueue<ScreencastFrame>> {
  const options = screencastOptions(request);
  const { window, driver } = await session.window(request.window);
  const start = driver.startScreencast?.bind(driver);
  if (!start) {
    throw new StagegraphError(
      'CAPABILITY_UNSUPPORTED',
      `Window ${window.id} of session ${session.id} (${session.transportId}) cannot be shown live.`,
      { nextActions: [sessionActions.transportsWith('SCREENSHOT')] },
    );
  }
  const producers = producersOf.get(session) ?? new Map<string, ScreencastProducer>();
  producersOf.set(session, producers);
  const key = `${window.id} ${options.maxFps} ${options.quality} ${options.maxWidth}`;
  let producer = producers.get(key);
  if (!producer) {
    if (producers.size >= MAX_PRODUCERS_PER_SESSION) throw limitReached(`${session.id} runs`, 'screencasts');
    const started = [...producers.values()].filter((running) => sameClient(startedBy.get(running), client));
    if (started.length >= MAX_PRODUCERS_PER_CLIENT)
      throw clientLimit(
        `screencasts of session ${session.id}`,
        MAX_PRODUCERS_PER_CLIENT,
        MAX_PRODUCERS_PER_SESSION,
      );
    const watch = hub.subscribe('sessionEvent', { accepts: endsWindow(session.id, window.id), capacity: 1 });
    const created: ScreencastProducer = new ScreencastProducer({
      sessionId: session.id,
      windowId: window.id,
      options,
      start: (onFrame) => start(options, onFrame),
      onEnd: () => {
        watch.close();
        if (producers.get(key) === created) producers.delete(key);
      },
    });
    producer = created;
    producers.set(key, created);
    startedBy.set(created, client);
    // The first event that ends the window ends the stream; a closed watch (server shutdown) does too.
    void watch.next().then(() => created.end());
    // The window may have closed between reading it and watching for its end.
    if (!session.hasWindow(window.id)) created.end();
  } else if (producer.viewerCount >= MAX_VIEWERS_PER_PRODUCER) {
    throw limitReached(`window ${window.id} has`, 'viewers of this screencast');
  }
  const viewers =
    viewersOf.get(producer) ?? new Map<SubscriberQueue<ScreencastFrame>, readonly ClientKey[]>();
  viewersOf.set(producer, viewers);
  // Slots close on their own (the viewer leaves, the window closes): forgotten when next counted.
  for (const viewer of viewers.keys()) if (viewer.closed) viewers.delete(viewer);
  const watching = [...viewers.values()].filter((viewer) => sameClient(viewer, client));
  if (watching.length >= MAX_VIEWERS_PER_CLIENT)
    throw clientLimit(`viewers of this screencast`, MAX_VIEWERS_PER_CLIENT, MAX_VIEWERS_PER_PRODUCER);
  const slot = producer.join();
  viewers.set(slot, client);
  try {
    await producer.started;
  } catch (error) {
    slot.close();
    throw error;
  }
  return slot;
}

/** Whether two clients' keys name the same client: its connection or its token. */
function sameClient(a: readonly ClientKey[] | undefined, b: readonly ClientKey[]): boolean {
  return a?.some((key) => b.includes(key)) === true;
}

function endsWindow(sessionId: string, windowId: string): (event: SessionEvent) => boolean {
  return (event) =>
    event.sessionId === sessionId &&
    (event.type === 'WINDOW_CLOSED' ? event.window?.id === windowId : SESSION_ENDINGS.has(event.type));
}

function limitReached(subject: string, what: string): StagegraphError {
  const limit = what === 'screencasts' ? MAX_PRODUCERS_PER_SESSION : MAX_VIEWERS_PER_PRODUCER;
  return new StagegraphError('SUBSCRIPTION_LIMIT', `Session ${subject} ${limit} ${what} already.`, {
    hint: 'Join a running screencast with the same window, maxFps, quality and maxWidth, or end one first.',
  });
}
