import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  NetworkControl,
  NetworkFilter,
  NetworkProblemRead,
  NetworkRecord,
  StubInfo,
} from '../../transports/contract/renderer-control.js';
import type { LogSnapshot, SequencedRead } from '../bounded/sequenced-log.js';
import type { EventHub } from '../events/event-hub.js';
import { clamp } from '../sessions/timeouts.js';
import { matchesNetworkQuery, type NetworkEntry, NetworkLog, type NetworkQuery } from './network-log.js';
import { pageStateActions } from './next-actions.js';

/** Bodies kept per entry by default: enough for typical JSON, small enough for a 500-entry ring. */
export const BODY_BYTES_DEFAULT = 64 * 1024;
/** The most a capture may keep of one body; with NETWORK_CAPACITY this bounds the ring at ~1 GB worst case. */
export const BODY_BYTES_MAX = 1024 * 1024;
/**
 * Captures armed at once per session. Every request of every page is checked against each armed capture's
 * filter (whose patterns may be as long as a request allows), so captures armed in a loop and never stopped
 * slowed every request and grew the session for its life; an agent needs a few at once.
 */
export const MAX_CAPTURES = 20;
/** A stub delay longer than a minute is a hung request, not a slow one; page timeouts are shorter. */
export const STUB_DELAY_MAX_MS = 60_000;

/** A filter as clients send it: null lists mean "any", as absent ones do. */
type FilterRequest = { readonly [K in keyof NetworkFilter]?: NetworkFilter[K] | null };

export interface CaptureRequest {
  readonly filter?: FilterRequest | null;
  readonly bodies?: boolean | null;
  readonly binaryBodies?: boolean | null;
  readonly maxBodyBytes?: number | null;
}

export interface NetworkCapture {
  readonly id: string;
  readonly filter: NetworkFilter;
  readonly bodies: boolean;
  readonly binaryBodies: boolean;
  readonly maxBodyBytes: number;
  readonly startedAt: Date;
}

export interface StubRequest {
  readonly pattern: string;
  readonly methods?: readonly string[] | null;
  readonly status?: number | null;
  readonly headers?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly body?: string | null;
  readonly abort?: boolean | null;
  readonly delayMs?: number | null;
  readonly times?: number | null;
}

/** A read of the network ring, with what never reached it. */
export interface NetworkRead extends LogSnapshot<NetworkEntry> {
  /** Requests never recorded: too many were in flight on a page at once and the oldest were forgotten. */
  readonly droppedInFlight: number;
}

/** A session's network capture and stubs: the ring the captures fill, and the ids clients hold. */
/** The hub topic network capture publishes on. */
export type NetworkTopics = {
  network: NetworkEntry;
};

export class SessionNetwork {
  readonly log: NetworkLog;
  readonly #sessionId: string;
  readonly #hub: EventHub<NetworkTopics>;
  readonly #control: () => NetworkControl;
  readonly #captures = new Map<string, NetworkCapture>();
  #nextCapture = 1;
  #nextStub = 1;
  /** The transport's count when last read, so it can still be told once the app has ended. */
  #droppedInFlight = 0;

  constructor(sessionId: string, hub: EventHub<NetworkTopics>, control: () => NetworkControl) {
    this.#sessionId = sessionId;
    this.log = new NetworkLog(sessionId);
    this.#hub = hub;
    this.#control = control;
  }

  onRecord(record: NetworkRecord): NetworkEntry {
    const entry = this.log.record(record);
    this.#hub.publish('network', entry);
    return entry;
  }

  read(query: SequencedRead & NetworkQuery): NetworkRead {
    try {
      this.#droppedInFlight = this.#control().droppedInFlight;
    } catch {
      // The app has ended (or never had the seam): the last count read is the final one.
    }
    const snapshot = this.log.snapshot(query, (entry) => matchesNetworkQuery(entry, query));
    return { ...snapshot, droppedInFlight: this.#droppedInFlight };
  }

  /** Failed requests and responses with status >= 400 since `since` (all kept when null), capture or not. */
  problems(since: Date | null): NetworkProblemRead {
    const read = this.#control().problems();
    return {
      problems: since === null ? read.problems : read.problems.filter((problem) => problem.time >= since),
      overflowed: read.overflowed,
    };
  }

  captures(): NetworkCapture[] {
    return [...this.#captures.values()];
  }

  async arm(request: CaptureRequest): Promise<NetworkCapture> {
    const control = this.#control();
    if (this.#captures.size >= MAX_CAPTURES)
      throw new StagegraphError(
        'CAPTURE_LIMIT',
        `Session ${this.#sessionId} has ${MAX_CAPTURES} network captures armed, the most it keeps.`,
        {
          nextActions: [pageStateActions.networkCaptures(this.#sessionId)],
          details: { limit: MAX_CAPTURES },
        },
      );
    const capture: NetworkCapture = {
      id: `c${this.#nextCapture++}`,
      filter: {
        urlPatterns: request.filter?.urlPatterns ?? [],
        methods: (request.filter?.methods ?? []).map((method) => method.toUpperCase()),
        resourceTypes: request.filter?.resourceTypes ?? [],
      },
      bodies: request.bodies ?? false,
      binaryBodies: request.binaryBodies ?? false,
      maxBodyBytes: clamp(request.maxBodyBytes, BODY_BYTES_DEFAULT, 1, BODY_BYTES_MAX),
      startedAt: new Date(),
    };
    await control.arm(capture.id, capture);
    this.#captures.set(capture.id, capture);
    return capture;
  }

  async disarm(id: string): Promise<NetworkCapture> {
    const capture = this.#captures.get(id);
    if (!capture) {
      throw new StagegraphError(
        'NETWORK_CAPTURE_NOT_FOUND',
        `Session ${this.#sessionId} has no armed capture ${id}.`,
        {
          nextActions: [pageStateActions.networkCaptures(this.#sessionId)],
          details: { armed: [...this.#captures.keys()] },
        },
      );
    }
    this.#captures.delete(id);
    await this.#control().disarm(id);
    return capture;
  }

  stubs(): StubInfo[] {
    return this.#control().stubs();
  }

  stub(request: StubRequest): Promise<StubInfo> {
    if (request.pattern.trim() === '') {
      throw new StagegraphError('BAD_INPUT', 'A stub needs a non-empty URL pattern (`*` matches anything).');
    }
    if (request.times != null && request.times < 1) {
      throw new StagegraphError(
        'BAD_INPUT',
        '`times` must be at least 1; leave it out for a stub that never retires.',
      );
    }
    return this.#control().stub(`stub${this.#nextStub++}`, {
      pattern: request.pattern,
      methods: (request.methods ?? []).map((method) => method.toUpperCase()),
      status: request.status ?? null,
      headers: Object.fromEntries(
        (request.headers ?? []).map(({ name, value }) => [name.toLowerCase(), value]),
      ),
      body: request.body ?? null,
      abort: request.abort ?? false,
      delayMs: clamp(request.delayMs, 0, 0, STUB_DELAY_MAX_MS),
      times: request.times ?? null,
    });
  }

  async unstub(id: string): Promise<StubInfo> {
    const control = this.#control();
    const removed = await control.unstub(id);
    if (removed) return removed;
    throw new StagegraphError('STUB_NOT_FOUND', `Session ${this.#sessionId} has no stub ${id}.`, {
      nextActions: [pageStateActions.networkStubs(this.#sessionId)],
      details: { stubs: control.stubs().map((stub) => stub.id) },
    });
  }
}
