import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { WritingBoot } from './cluster.js';
import { type EventStreams, streamOf } from './event-streams.js';

/** The hub topics whose events other replicas can subscribe to, each through its session's stream. */
export const STREAMED_TOPICS = [
  'console',
  'sessionEvent',
  'network',
  'dialog',
  'notification',
  'nativeDialog',
  'ipc',
  'contextMenu',
] as const;
export type StreamedTopic = (typeof STREAMED_TOPICS)[number];

/**
 * The owner's side of the session streams: every event of a streamed topic is numbered as it is published
 * (1, 2, … per session and topic) and appended to its stream. Numbers are dense, so a reader that finds
 * one missing knows it lost it (trimmed, or not written while the store was out), and local subscribers
 * read the same number as the event's cursor (`cursorOf`). Appends go out in publishing order on one
 * connection; one that fails is reported, not retried: readers see the hole it leaves.
 *
 * Once the replica is fenced its sessions read LOST on the others, whose readers ended at the stream's
 * last event: nothing more is numbered or appended (local subscribers still get each event, without a
 * cursor). An event published before the replica learnt it is refused by the store, in the step that
 * would append it, if the boot was fenced by then, and that refusal fences the replica: a stream holds
 * exactly what was appended before its owner was reaped.
 */
export class SessionStreamWriter {
  readonly #streams: EventStreams;
  readonly #boot: WritingBoot;
  readonly #failed: (error: unknown) => void;
  readonly #numbers = new Map<string, number>();
  readonly #cursors = new WeakMap<object, string>();
  readonly #appending = new Set<Promise<void>>();
  readonly #removals: (() => void)[];

  constructor(
    streams: EventStreams,
    hub: EventHub<SessionTopics>,
    boot: WritingBoot,
    failed: (error: unknown) => void,
  ) {
    this.#streams = streams;
    this.#boot = boot;
    this.#failed = failed;
    this.#removals = STREAMED_TOPICS.map((topic) =>
      hub.observe(topic, (event) => this.#append(topic, event)),
    );
  }

  /** The event's number in its session's stream, as a cursor; undefined for an event not streamed. */
  cursorOf(event: object): string | undefined {
    return this.#cursors.get(event);
  }

  /** Stops numbering, and resolves once the appends under way are answered. */
  async close(): Promise<void> {
    for (const remove of this.#removals) remove();
    await Promise.all(this.#appending);
  }

  #append(topic: StreamedTopic, event: { readonly sessionId: string }): void {
    if (this.#boot.fenced) return;
    const stream = streamOf(event.sessionId, topic);
    const number = (this.#numbers.get(stream) ?? 0) + 1;
    this.#numbers.set(stream, number);
    this.#cursors.set(event, String(number));
    const appended = this.#streams
      .append(stream, number, JSON.stringify(event), this.#boot)
      .then((written) => {
        if (!written) this.#boot.refusedByStore();
      })
      .catch((error: unknown) => this.#failed(error))
      .finally(() => this.#appending.delete(appended));
    this.#appending.add(appended);
  }
}
