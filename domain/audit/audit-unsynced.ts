import type { FileHandle } from 'node:fs/promises';

/**
 * Unsynced bytes kept at most. The log syncs every AUDIT_FSYNC_INTERVAL_MS, so this is reached only by a
 * burst of megabytes of records within a quarter second; the writer then syncs before going on.
 */
export const MAX_UNSYNCED_AUDIT_BYTES = 4 * 1024 * 1024;

/**
 * What the current audit file was given since its last successful fsync: the bytes a filesystem that fails
 * (ext4 turning itself read-only after an error, a failed writeback) may lose although every write of them
 * succeeded. Kept so that reopening can write them again instead of finding records gone.
 */
export class UnsyncedTail {
  /** The file's length when it was last synced: everything before it is on the disk. */
  #durable: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Bumped by `reset`: a sync of the previous file must not let go of the new file's bytes. */
  #generation = 0;

  constructor(durable: number) {
    this.#durable = durable;
  }

  get bytes(): number {
    return this.#bytes;
  }

  add(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
  }

  /**
   * Call as a sync starts; the function it returns, once the sync succeeded, lets go of what it covered.
   * Syncs overlap (a timer's sync still running on a slow disk when the next timer fires): what a sync
   * covers is the file up to where it ended when the sync started, so whichever finishes second lets go only
   * of what the first did not. Counted as lengths, both would, and the log would take lines for synced that
   * a failing filesystem may still lose, and refuse the file as damaged when it does.
   */
  mark(): () => void {
    const end = this.#durable + this.#bytes;
    const generation = this.#generation;
    return () => {
      if (generation !== this.#generation) return;
      let chunks = 0;
      let bytes = 0;
      // Chunks are added whole and `end` was taken between two of them.
      while (this.#durable + bytes < end) {
        bytes += this.#chunks[chunks]!.length;
        chunks += 1;
      }
      this.#chunks.splice(0, chunks);
      this.#bytes -= bytes;
      this.#durable += bytes;
    };
  }

  /** A new file, synced as it was started. */
  reset(durable: number): void {
    this.#generation += 1;
    this.#durable = durable;
    this.#chunks = [];
    this.#bytes = 0;
  }

  /**
   * The bytes the file lacks when it holds `size` of the `expected` written: null when it holds less than
   * was synced, or when what it holds past that is not what was written (then it was not the filesystem).
   */
  async missing(handle: FileHandle, size: number, expected: number): Promise<Buffer | null> {
    if (size < this.#durable || expected !== this.#durable + this.#bytes) return null;
    const written = Buffer.concat(this.#chunks, this.#bytes);
    const kept = size - this.#durable;
    const onDisk = Buffer.alloc(kept);
    await handle.read(onDisk, 0, kept, this.#durable);
    return onDisk.equals(written.subarray(0, kept)) ? written.subarray(kept) : null;
  }
}
