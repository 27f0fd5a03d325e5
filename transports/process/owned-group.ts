import type { ExitInfo } from '../contract/transport-events.js';
import { reapGroup, signalGroup, stopProcessGroup } from './process-group.js';

/**
 * A process group Stagegraph started and must reap, led by a child whose exit `exited` reports. When the
 * leader exits on its own, what it spawned is killed at once; once a stop is requested the stop's ladder
 * alone decides, so an app's helpers may finish their own shutdown within the grace. Both launch and
 * launchCommand sessions own their processes through this.
 *
 * Once the leader has exited and the group has been seen empty, its pgid is free: Linux hands it out again
 * after the pid counter wraps (at 32768 on the CI machine, where one test run uses about as many pids).
 * From then on the group is never signalled, so a late kill of a long-dead session cannot reach another
 * program's group.
 */
export class OwnedGroup {
  readonly pgid: number;
  readonly exited: Promise<ExitInfo>;
  #stop: Promise<ExitInfo> | undefined;
  #leaderGone = false;
  #cleared = false;

  constructor(pgid: number, exited: Promise<ExitInfo>) {
    this.pgid = pgid;
    this.exited = exited;
    void exited.then(() => {
      this.#leaderGone = true;
      if (!this.#stop) void this.#reap();
    });
  }

  /** Set from the moment stop() is called: whatever the app or its connections do next is the stop's doing. */
  get stopRequested(): boolean {
    return this.#stop !== undefined;
  }

  /** Runs the ladder once; later calls share it (a second stop neither restarts nor shortens the grace). */
  stop(graceful: () => Promise<unknown>, graceMs: number): Promise<ExitInfo> {
    if (this.#leaderGone && !this.#stop) return this.exited;
    this.#stop ??= stopProcessGroup({ pgid: this.pgid, exited: this.exited, graceful, graceMs }).then(
      async (exit) => {
        await this.#reap();
        return exit;
      },
    );
    return this.#stop;
  }

  /** Ends the group now, unless a requested stop is already ending it: then its ladder is let finish. */
  end(): Promise<ExitInfo> {
    return this.#stop ?? this.kill();
  }

  async kill(): Promise<ExitInfo> {
    if (!this.#leaderGone) signalGroup(this.pgid, 'SIGKILL');
    const exit = await this.exited;
    await this.#reap();
    return exit;
  }

  /** Reaps what is left of the group, unless it has been seen empty since its leader exited. */
  async #reap(): Promise<void> {
    if (this.#cleared) return;
    this.#cleared = await reapGroup(this.pgid);
  }
}
