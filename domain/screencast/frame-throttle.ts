/**
 * Passes on at most one value per `intervalMs`, never losing the newest: a value arriving too soon waits
 * (replacing any that already waited) until the interval has passed since the last one passed. So a burst
 * of repaints reaches viewers at the frame rate they asked for, and the frame a burst ends on — what the
 * window shows from then on — is always delivered, however quiet the window stays afterwards.
 */
export class FrameThrottle<T> {
  readonly #intervalMs: number;
  readonly #emit: (value: T) => void;
  readonly #now: () => number;
  #lastEmitAt = Number.NEGATIVE_INFINITY;
  #waiting: { value: T } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #cancelled = false;

  constructor(intervalMs: number, emit: (value: T) => void, now: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#emit = emit;
    this.#now = now;
  }

  push(value: T): void {
    if (this.#cancelled) return;
    const wait = this.#lastEmitAt + this.#intervalMs - this.#now();
    if (wait <= 0 && this.#timer === undefined) {
      this.#pass(value);
      return;
    }
    this.#waiting = { value };
    this.#timer ??= setTimeout(() => this.#flush(), Math.max(0, wait));
  }

  /** Drops whatever waits; nothing passes after this. */
  cancel(): void {
    this.#cancelled = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting && !this.#cancelled) this.#pass(waiting.value);
  }

  #pass(value: T): void {
    this.#lastEmitAt = this.#now();
    this.#emit(value);
  }
}
