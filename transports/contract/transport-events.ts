import type { NativeEvent } from './native.js';
import type { DialogDecision, DialogSeen, NetworkRecord } from './renderer-control.js';

/**
 * What a transport session publishes, one topic a kind of event, and the port the domain subscribes on.
 * Each domain feature subscribes to the topics it owns (see `topics` beside its code), so the path of an
 * event from an app to a subscriber reads as imports and typed handlers.
 */

export interface WindowInfo {
  /** Stable for the window's life within its session (`w1`, `w2`, ...). */
  readonly id: string;
  readonly title: string;
  readonly url: string;
}

export type ConsoleSource = 'RENDERER' | 'MAIN';

export interface ConsoleMessage {
  readonly time: Date;
  /** The console API type as Chromium names it: log, info, warning, error, debug, trace, ... */
  readonly type: string;
  readonly text: string;
  readonly source: ConsoleSource;
  /** The window that logged it; absent for the main process. */
  readonly windowId?: string;
  readonly location?: string;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

/** Each topic with what its events carry besides their `type`. */
export interface TransportTopics {
  'window-opened': { readonly window: WindowInfo };
  'window-closed': { readonly window: WindowInfo };
  'renderer-crashed': { readonly window: WindowInfo };
  console: { readonly message: ConsoleMessage };
  network: { readonly record: NetworkRecord };
  dialog: { readonly dialog: DialogSeen; readonly decision: DialogDecision };
  exited: { readonly exit: ExitInfo };
  /** The connection to an app Stagegraph does not own is gone (the app quit, or closed its port). */
  disconnected: { readonly reason: string };
  /** A line the app's process wrote to stdout or stderr. */
  output: { readonly stream: 'stdout' | 'stderr'; readonly text: string };
  native: { readonly event: NativeEvent };
}

export type TransportTopic = keyof TransportTopics;

/** An event of one topic (of any, by default), its topic in `type`. */
export type TransportEvent<T extends TransportTopic = TransportTopic> = T extends TransportTopic
  ? { readonly type: T } & TransportTopics[T]
  : never;

/** One subscriber's handlers, for the topics it owns and no other. */
export type TopicHandlers = { readonly [T in TransportTopic]?: (event: TransportEvent<T>) => void };

export interface EventPort {
  /**
   * Subscribes the session's features, all at once: each event goes to the handlers of its topic in the
   * order the subscribers are given, events in the order the transport observed them. Events published
   * before this call (a start-up's first windows and output) are delivered now. Returns an unsubscribe.
   */
  subscribe(subscribers: readonly TopicHandlers[]): () => void;
}
