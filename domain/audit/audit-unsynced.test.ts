import type { FileHandle } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UnsyncedTail } from './audit-unsynced.js';

/** The part of a file handle `missing` reads through, over bytes held in memory. */
function fileHolding(bytes: Buffer): FileHandle {
  const read = async (into: Buffer, offset: number, length: number, position: number) => {
    const bytesRead = bytes.copy(into, offset, position, position + length);
    return { bytesRead, buffer: into };
  };
  return { read } as unknown as FileHandle;
}

const line = (text: string) => Buffer.from(`${text}\n`);

describe('UnsyncedTail', () => {
  it('a sync that finishes after a later one lets go of nothing more: the lost tail is still written again', async () => {
    const first = line('first');
    const second = line('second');
    const third = line('third');
    const tail = new UnsyncedTail(0);
    tail.add(first);
    const earlier = tail.mark();
    tail.add(second);
    const later = tail.mark();
    later();
    earlier();
    tail.add(third);
    expect(tail.bytes).toBe(third.length);

    // The filesystem kept what both syncs covered and lost the line written after them.
    const synced = Buffer.concat([first, second]);
    const expected = synced.length + third.length;
    expect(await tail.missing(fileHolding(synced), synced.length, expected)).toEqual(third);
  });

  it('syncs that finish in order let go of what each covered', async () => {
    const tail = new UnsyncedTail(0);
    tail.add(line('first'));
    const earlier = tail.mark();
    tail.add(line('second'));
    const later = tail.mark();
    tail.add(line('third'));
    earlier();
    expect(tail.bytes).toBe(line('second').length + line('third').length);
    later();
    expect(tail.bytes).toBe(line('third').length);
  });

  it('a file shorter than what was synced is not the filesystem losing unsynced lines', async () => {
    const first = line('first');
    const tail = new UnsyncedTail(0);
    tail.add(first);
    tail.mark()();
    tail.add(line('second'));
    expect(await tail.missing(fileHolding(Buffer.alloc(0)), 0, first.length + line('second').length)).toBe(
      null,
    );
  });
});
