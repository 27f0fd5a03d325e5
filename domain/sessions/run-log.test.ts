import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelOfConsole, RUN_LOG_FILE, RUN_LOG_MAX_BYTES, RunLog } from './run-log.js';

const read = (folder: string) =>
  readFileSync(join(folder, RUN_LOG_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('run log', () => {
  it('holds every line appended so far in the file once written() settles, without waiting for its batch', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'stagegraph-run-log-')), 's1');
    const log = new RunLog(folder);
    await log.written();
    for (let i = 0; i < 3; i += 1) log.stagegraph(`line ${i}`);
    await log.written();
    expect(read(folder).map((line) => line.message)).toEqual(['line 0', 'line 1', 'line 2']);
    log.stagegraph('app exited (code 0)');
    await log.written();
    expect(read(folder).at(-1)?.message).toBe('app exited (code 0)');
    await log.close();
  });

  it('appends one JSON object per line, and keeps an earlier run of the same session id', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'stagegraph-run-log-')), 's1');
    const first = new RunLog(folder);
    first.stagegraph('first run');
    await first.close();
    const second = new RunLog(folder);
    second.append({ time: new Date(0), source: 'stdout', level: 'info', message: 'hello', windowId: 'w1' });
    second.append({ time: new Date(0), source: 'console', level: 'error', message: 'x'.repeat(10_000) });
    await second.close();
    const lines = read(folder);
    expect(lines[0]).toMatchObject({ source: 'stagegraph', level: 'info', message: 'first run' });
    expect(lines[1]).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      source: 'stdout',
      level: 'info',
      message: 'hello',
      windowId: 'w1',
    });
    expect(lines[2].message.length).toBeLessThan(10_000);
  });

  it('stops at its size bound and says how much it dropped', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stagegraph-run-log-'));
    const log = new RunLog(folder);
    const message = 'y'.repeat(8_000);
    const fits = Math.floor(RUN_LOG_MAX_BYTES / 8_100);
    for (let i = 0; i < fits + 100; i += 1)
      log.append({ time: new Date(), source: 'stdout', level: 'info', message });
    expect(log.dropped).toBeGreaterThanOrEqual(50);
    await log.close();
    const lines = read(folder);
    expect(lines.at(-1)).toMatchObject({
      level: 'warn',
      message: `run log full: ${log.dropped} entries dropped`,
    });
  });

  it('puts console types on four levels', () => {
    expect(['error', 'warning', 'debug', 'log', 'pageerror'].map(levelOfConsole)).toEqual([
      'error',
      'warn',
      'debug',
      'info',
      'error',
    ]);
  });
});
