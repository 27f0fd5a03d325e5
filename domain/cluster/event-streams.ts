import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ReplicaBoot } from './cluster-store.js';

/** One event as its stream holds it: its number there (1, 2, … in publishing order) and its JSON. */
export interface StreamedEvent {
  readonly number: number;
  readonly json: string;
}

/**
 * The streams that carry each session's events to every replica: the port domain/cluster/ speaks,
 * implemented over Redis Streams by the server (server/redis-event-streams.ts). One stream per session and
 * topic, written by the session's owner only, and one per cluster-wide topic, written by every replica;
 * each trimmed to a bound the adapter knows. An append names the boot writing it, and the store refuses it
 * in the same step once that boot is fenced, so a replica woken from a pause adds nothing to the streams
 * of sessions the others already read as LOST, whatever it has not learnt yet. Every method rejects
 * (CLUSTER_UNAVAILABLE) when the store cannot be reached in time; none waits without a deadline.
 */
export interface EventStreams {
  /**
   * Appends `json` as event `number`, which is above every number the stream held; answers false, having
   * written nothing, when `boot` is fenced.
   */
  append(stream: string, number: number, json: string, boot: ReplicaBoot): Promise<boolean>;
  /**
   * Appends `json` numbered by the store, one above the stream's newest, and answers its number: for a
   * stream every replica writes (a cluster-wide topic), whose numbers stay dense whoever appends. Null,
   * having written nothing, when `boot` is fenced.
   */
  appendNext(stream: string, json: string, boot: ReplicaBoot): Promise<number | null>;
  /** Up to `count` events after number `after`, oldest first, without waiting for any. */
  range(stream: string, after: number, count: number): Promise<StreamedEvent[]>;
  /** The number of the stream's newest event; 0 when it holds none. */
  newest(stream: string): Promise<number>;
  /** A reader with a connection of its own, since a waiting read holds its connection. */
  openReader(): Promise<StreamReader>;
  close(): Promise<void>;
}

export interface StreamReader {
  /** The events after number `after`, oldest first; waits at most `waitMs` for one, else answers none. */
  read(stream: string, after: number, waitMs: number): Promise<StreamedEvent[]>;
  /** Ends the reader at once: a read under way rejects. */
  close(): void;
}

/** The stream of one session's events of one hub topic. */
export function streamOf(sessionId: string, topic: string): string {
  return `events:${sessionId}:${topic}`;
}

/** The one stream of a cluster-wide topic, which every replica appends to. */
export function clusterStreamOf(topic: string): string {
  return `events:cluster:${topic}`;
}

/** The `after` a subscriber passes: the `cursor` of the last event it saw, its number in the stream, as digits. */
export function streamCursor(after: string | null | undefined): number | null {
  if (after == null) return null;
  if (!/^\d{1,15}$/.test(after))
    throw new StagegraphError(
      'BAD_INPUT',
      `\`after\` takes the \`cursor\` of an event, digits; got "${after}".`,
    );
  return Number(after);
}
