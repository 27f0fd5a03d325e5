import { StagegraphError } from '../../../errors/stagegraph-error.js';

/** Sustained mutations per second per client: well above what an agent driving a UI needs (tens per minute). */
export const DEFAULT_MUTATIONS_PER_SECOND = 20;
/** Bursts allowed above the rate: a fill-then-click sequence sent at once is not abuse. */
export const DEFAULT_MUTATION_BURST = 40;

export interface RateLimitOptions {
  readonly perSecond?: number;
  readonly burst?: number;
  /** Tests inject time (milliseconds, monotonic). */
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A token bucket per client id; clients are few (one per token), so buckets are never evicted. */
export class MutationRateLimiter {
  #perMs: number;
  #burst: number;
  #now: () => number;
  #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions = {}) {
    this.#perMs = (options.perSecond ?? DEFAULT_MUTATIONS_PER_SECOND) / 1_000;
    this.#burst = options.burst ?? DEFAULT_MUTATION_BURST;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Spends one token of the client's bucket, or throws RATE_LIMITED saying how long to wait. */
  take(clientId: string): void {
    const now = this.#now();
    const bucket = this.#buckets.get(clientId) ?? { tokens: this.#burst, updatedAt: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
    bucket.updatedAt = now;
    this.#buckets.set(clientId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfterMs = Math.ceil((1 - bucket.tokens) / this.#perMs);
    throw new StagegraphError(
      'RATE_LIMITED',
      `Client ${clientId} exceeded ${this.#perMs * 1_000} mutations per second.`,
      {
        details: { retryAfterMs },
      },
    );
  }
}
