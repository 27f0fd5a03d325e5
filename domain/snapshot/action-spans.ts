/**
 * A session's actions (click, fill, navigation, ...) as spans from the moment one may start changing a
 * window to the moment its effect has been read or waited for. Two reads of a window are compared to learn
 * what the page changes on its own only when no span touched the time between them: not one that ran
 * while either read was made, nor one that began or ended between them.
 */
export class ActionSpans {
  /** Bumped when an action begins and when it ends. */
  #mark = 0;
  #running = 0;

  /** An action begins; call the returned function once its effect is in (it may be called again). */
  begin(): () => void {
    this.#mark += 1;
    this.#running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#running -= 1;
      this.#mark += 1;
    };
  }

  /**
   * Where the session stands: take it just before asking a transport to read, and the read saw no action
   * of the session since it for as long as `noneSince` says so.
   */
  get mark(): number {
    return this.#mark;
  }

  /** No action ran, began or ended since `mark` was taken. */
  noneSince(mark: number): boolean {
    return this.#running === 0 && this.#mark === mark;
  }
}
