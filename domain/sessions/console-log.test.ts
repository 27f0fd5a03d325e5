import { describe, expect, it } from 'vitest';
import { CONSOLE_CAPACITY, ConsoleLog } from './console-log.js';

function fill(log: ConsoleLog, count: number) {
  for (let i = 1; i <= count; i += 1) {
    log.append({
      time: new Date(),
      type: i % 10 === 0 ? 'error' : 'log',
      text: `line ${i}`,
      source: i % 2 === 0 ? 'RENDERER' : 'MAIN',
      ...(i % 2 === 0 ? { windowId: i % 4 === 0 ? 'w2' : 'w1' } : {}),
    });
  }
}

describe('ConsoleLog', () => {
  it(`keeps the newest ${CONSOLE_CAPACITY} entries and counts what overflowed`, () => {
    const log = new ConsoleLog('s1');
    fill(log, CONSOLE_CAPACITY + 500);
    const snapshot = log.snapshot({});
    expect(snapshot.entries).toHaveLength(CONSOLE_CAPACITY);
    expect(snapshot.overflowed).toBe(500);
    expect(snapshot.total).toBe(CONSOLE_CAPACITY + 500);
    expect(snapshot.entries[0]).toMatchObject({ seq: 501, sessionId: 's1', text: 'line 501' });
  });

  it('filters by type, window, text and sequence, and `last` takes the newest', () => {
    const log = new ConsoleLog('s1');
    fill(log, 40);
    expect(log.read({ types: ['error'] }).map((entry) => entry.seq)).toEqual([10, 20, 30, 40]);
    expect(log.read({ windowId: 'w2', last: 2 }).map((entry) => entry.seq)).toEqual([36, 40]);
    expect(log.read({ textContains: 'line 3', afterSeq: 35 }).map((entry) => entry.seq)).toEqual([
      36, 37, 38, 39,
    ]);
    expect(log.read({ last: 0 })).toEqual([]);
    expect(log.read({ windowId: null, types: null })).toHaveLength(40);
  });

  it('tags main-process entries with no window', () => {
    const log = new ConsoleLog('s1');
    fill(log, 1);
    expect(log.read({})[0]).toMatchObject({ source: 'MAIN', windowId: null });
  });
});
