import type { WritingBoot } from './cluster.js';
import { clusterStreamOf, type EventStreams } from './event-streams.js';

/** The topics every replica writes to one stream of the cluster's, each event with the replica it came from. */
export const CLUSTER_TOPICS = ['audit', 'approval'] as const;
export type ClusterTopic = (typeof CLUSTER_TOPICS)[number];

/**
 * One event of a cluster-wide topic as its stream holds it: the replica that wrote it, and how many of
 * that replica's events of the topic just before it never reached the stream (the store was out), so a
 * reader counts them as lost although the stream's numbers, given by the store, have no hole for them.
 */
export interface TopicEntry<T> {
  readonly replica: string;
  readonly missedBefore: number;
  readonly event: T;
}

/**
 * Appends waiting at most, per topic: past it (the store answers slower than events come) an event is
 * counted missed at once instead of queued, so an outage never grows memory.
 */
export const MAX_QUEUED_APPENDS = 1_000;

/**
 * This replica's side of the cluster-wide topic streams. Appends of a topic go out one at a time, in
 * publishing order, so a failed one is known before the next is sent and that next carries the count.
 * The store numbers each entry, so the numbers stay dense across replicas and a reader finds a trimmed
 * stretch as a hole; a failure is reported, not retried.
 *
 * Once the replica is fenced nothing more is appended (its audit records stay in its own files): an
 * event queued or published after that answers null at once. One sent before the replica learnt it is
 * refused by the store, in the step that would append it, if the boot was fenced by then, and that
 * refusal fences the replica: the cluster's streams hold nothing a boot wrote after it was reaped.
 */
export class ClusterTopicWriter {
  readonly #streams: EventStreams;
  readonly #boot: WritingBoot;
  readonly #failed: (error: unknown) => void;
  readonly #topics = new Map<ClusterTopic, { tail: Promise<void>; queued: number; missed: number }>();

  constructor(streams: EventStreams, boot: WritingBoot, failed: (error: unknown) => void) {
    this.#streams = streams;
    this.#boot = boot;
    this.#failed = failed;
  }

  /** Queues `event` for its topic's stream; resolves with its number there, or null when it was not written. */
  append(topic: ClusterTopic, event: unknown): Promise<number | null> {
    if (this.#boot.fenced) return Promise.resolve(null);
    let state = this.#topics.get(topic);
    if (!state) {
      state = { tail: Promise.resolve(), queued: 0, missed: 0 };
      this.#topics.set(topic, state);
    }
    const queue = state;
    if (queue.queued >= MAX_QUEUED_APPENDS) {
      queue.missed += 1;
      return Promise.resolve(null);
    }
    queue.queued += 1;
    const appended = queue.tail.then(async () => {
      const boot = this.#boot;
      const entry: TopicEntry<unknown> = { replica: boot.replicaId, missedBefore: queue.missed, event };
      try {
        if (boot.fenced) return null;
        const number = await this.#streams.appendNext(clusterStreamOf(topic), JSON.stringify(entry), boot);
        if (number === null) boot.refusedByStore();
        else queue.missed = 0;
        return number;
      } catch (error) {
        queue.missed += 1;
        this.#failed(error);
        return null;
      } finally {
        queue.queued -= 1;
      }
    });
    queue.tail = appended.then(() => undefined);
    return appended;
  }

  /** Resolves once the appends under way are answered. */
  async close(): Promise<void> {
    await Promise.all([...this.#topics.values()].map((queue) => queue.tail));
  }
}
