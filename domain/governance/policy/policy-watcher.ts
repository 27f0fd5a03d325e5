import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { Policy } from './policy.js';
import { loadPolicyFile } from './policy-file.js';

/**
 * Editors save in bursts (truncate, write, rename, chmod): waiting this long after the last event reads
 * the finished file once instead of a half-written one several times.
 */
export const POLICY_RELOAD_DEBOUNCE_MS = 150;

export interface PolicyWatcherOptions {
  /** A new policy is active (not called for saves that left the bytes unchanged). */
  readonly onReload?: (policy: Policy) => void;
  /** A reload failed; the previous policy stays active. */
  readonly onError?: (error: StagegraphError) => void;
  readonly debounceMs?: number;
}

/**
 * Keeps the policy of one file current. The directory is watched, not the file: editors that save by
 * writing a new file and renaming it over the old one would leave a file watcher on a deleted inode.
 */
export class PolicyWatcher {
  readonly path: string;
  #current: Policy;
  #options: PolicyWatcherOptions;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> = Promise.resolve();

  /** Loads the file (a bad file at start-up throws POLICY_INVALID: there is no previous policy to keep). */
  static async open(path: string, options: PolicyWatcherOptions = {}): Promise<PolicyWatcher> {
    const absolute = resolve(path);
    return new PolicyWatcher(absolute, await loadPolicyFile(absolute), options);
  }

  private constructor(path: string, initial: Policy, options: PolicyWatcherOptions) {
    this.path = path;
    this.#current = initial;
    this.#options = options;
    const name = basename(path);
    this.#watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed.toString() === name) this.#schedule();
    });
    // A watcher error (directory removed) must not crash the server; the last good policy stays.
    this.#watcher.on('error', () => undefined);
  }

  get current(): Policy {
    return this.#current;
  }

  /** Re-reads the file now; resolves when the new policy is active or the error was reported. */
  reload(): Promise<void> {
    // Chained so two reloads never race and an older read never replaces a newer one.
    this.#reloading = this.#reloading.then(async () => {
      if (this.#watcher === undefined) return;
      try {
        const next = await loadPolicyFile(this.path);
        if (this.#watcher === undefined || next.origin.sha256 === this.#current.origin.sha256) return;
        this.#current = next;
        this.#options.onReload?.(next);
      } catch (error) {
        this.#options.onError?.(error as StagegraphError);
      }
    });
    return this.#reloading;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.reload(), this.#options.debounceMs ?? POLICY_RELOAD_DEBOUNCE_MS);
  }
}
