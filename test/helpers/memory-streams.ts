import type { ReplicaBoot } from '../../domain/cluster/cluster-store.js';
import type { EventStreams, StreamedEvent, StreamReader } from '../../domain/cluster/event-streams.js';

/**
 * Streams in memory, trimmed to `bound` as Redis trims them: a read waits until an append or its end, so
 * the tests wait for what they cause, never for time.
 */
export class MemoryStreams implements EventStreams {
  readonly streams = new Map<string, StreamedEvent[]>();
  readonly #waiting = new Set<() => void>();
  /**
   * The boot each replica's record holds, by replica id: an append of another boot is refused, as the
   * store's script refuses a fenced boot's. A replica not named here fences nobody.
   */
  readonly holders = new Map<string, number>();
  failure: Error | null = null;
  openReaders = 0;

  constructor(readonly bound = 100) {}

  async append(stream: string, number: number, json: string, boot: ReplicaBoot): Promise<boolean> {
    if (this.failure) throw this.failure;
    const holder = this.holders.get(boot.replicaId);
    if (holder !== undefined && holder !== boot.epoch) return false;
    const events = [...(this.streams.get(stream) ?? []), { number, json }];
    this.streams.set(stream, events.slice(-this.bound));
    for (const wake of this.#waiting) wake();
    return true;
  }

  /** Numbered and appended in one step, as the store's script does it. */
  async appendNext(stream: string, json: string, boot: ReplicaBoot): Promise<number | null> {
    const number = (this.streams.get(stream)?.at(-1)?.number ?? 0) + 1;
    return (await this.append(stream, number, json, boot)) ? number : null;
  }

  async range(stream: string, after: number, count: number): Promise<StreamedEvent[]> {
    if (this.failure) throw this.failure;
    return (this.streams.get(stream) ?? []).filter((event) => event.number > after).slice(0, count);
  }

  async newest(stream: string): Promise<number> {
    return this.streams.get(stream)?.at(-1)?.number ?? 0;
  }

  async openReader(): Promise<StreamReader> {
    this.openReaders += 1;
    let closed = false;
    let wakeOnClose = () => {};
    return {
      read: (stream, after) =>
        new Promise((resolve, reject) => {
          const check = () => {
            if (closed) return reject(new Error('Connection is closed.'));
            if (this.failure) return reject(this.failure);
            const found = (this.streams.get(stream) ?? []).filter((event) => event.number > after);
            if (found.length === 0) return false;
            resolve(found);
            return true;
          };
          if (check() !== false) return;
          const wake = () => {
            if (check() !== false) this.#waiting.delete(wake);
          };
          wakeOnClose = wake;
          this.#waiting.add(wake);
        }),
      close: () => {
        closed = true;
        this.openReaders -= 1;
        wakeOnClose();
      },
    };
  }

  /** Wakes every waiting read, which then fails with `error`. */
  fail(error: Error): void {
    this.failure = error;
    for (const wake of this.#waiting) wake();
  }

  async close(): Promise<void> {}
}

/**
 * A replica's view of the cluster for tests of its cluster-wide topics: it knows its own id, finds every
 * session (as another replica's) and never sees one lost.
 */
export function replicaKnowingEverySession(replicaId: string) {
  return {
    ...writingBoot(replicaId),
    session: async () => ({}) as never,
    onLost: () => () => {},
    replica: () => undefined,
    assertServing: () => {},
  };
}

/** Boot `epoch` of replica `replicaId` as a writer sees it: fenced once a test says so, or the store refused it. */
export function writingBoot(replicaId: string, epoch = 1) {
  return {
    replicaId,
    epoch,
    fenced: false,
    refused: 0,
    refusedByStore() {
      this.refused += 1;
      this.fenced = true;
    },
  };
}
