import { describe, expect, it } from 'vitest';
import { SequencedLog } from './sequenced-log.js';

interface Line {
  readonly seq: number;
  readonly text: string;
}

function filled(capacity: number, count: number): SequencedLog<Line> {
  const log = new SequencedLog<Line>(capacity);
  for (let i = 1; i <= count; i += 1) log.append((seq) => ({ seq, text: `line ${i}` }));
  return log;
}

describe('SequencedLog', () => {
  it('numbers entries from 1 as they arrive and hands back what it appended', () => {
    const log = new SequencedLog<Line>(3);
    expect(log.append((seq) => ({ seq, text: 'a' }))).toEqual({ seq: 1, text: 'a' });
    expect(log.append((seq) => ({ seq, text: 'b' }))).toEqual({ seq: 2, text: 'b' });
    expect(log.snapshot({})).toEqual({
      entries: [
        { seq: 1, text: 'a' },
        { seq: 2, text: 'b' },
      ],
      overflowed: 0,
      total: 2,
    });
  });

  it('keeps the newest entries past capacity and counts the rest, without renumbering', () => {
    const log = filled(3, 10);
    expect(log.overflowed).toBe(7);
    const snapshot = log.snapshot({});
    expect(snapshot.entries.map((entry) => entry.seq)).toEqual([8, 9, 10]);
    expect(snapshot).toMatchObject({ overflowed: 7, total: 10 });
  });

  it('reads after a sequence number, through a filter, and `last` takes the newest matches', () => {
    const log = filled(10, 10);
    const even = (entry: Line) => entry.seq % 2 === 0;
    expect(log.snapshot({ afterSeq: 6 }).entries.map((entry) => entry.seq)).toEqual([7, 8, 9, 10]);
    expect(log.snapshot({ last: 2 }, even).entries.map((entry) => entry.seq)).toEqual([8, 10]);
    expect(log.snapshot({ afterSeq: 3, last: null }, even).entries.map((entry) => entry.seq)).toEqual([
      4, 6, 8, 10,
    ]);
    expect(log.snapshot({ last: 0 }).entries).toEqual([]);
    expect(log.snapshot({ afterSeq: 10 }).entries).toEqual([]);
  });
});
