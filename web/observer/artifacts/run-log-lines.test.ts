import { describe, expect, it } from 'vitest';
import { parseRunLog } from './run-log-lines.js';

describe('parseRunLog', () => {
  it('reads the lines a session writes, and counts what is not a JSON object', () => {
    const text = [
      '{"time":"2026-11-25T09:00:00.000Z","source":"stagegraph","level":"info","message":"session s1 started by launch"}',
      '{"time":"2026-11-25T09:00:01.000Z","source":"console","level":"info","message":"hello","windowId":"w1"}',
      '',
      '{"time":"2026-11-25T09:00:02.000Z","source":"stderr","level":"er',
      'null',
    ].join('\n');
    expect(parseRunLog(text)).toEqual({
      lines: [
        {
          time: '2026-11-25T09:00:00.000Z',
          source: 'stagegraph',
          level: 'info',
          message: 'session s1 started by launch',
        },
        {
          time: '2026-11-25T09:00:01.000Z',
          source: 'console',
          level: 'info',
          message: 'hello',
          windowId: 'w1',
        },
      ],
      unreadable: 2,
    });
  });

  it('shows a line without a text message as its JSON', () => {
    const { lines } = parseRunLog('{"time":"t","source":"s","level":"l","message":{"a":1}}');
    expect(lines[0]?.message).toBe('{"time":"t","source":"s","level":"l","message":{"a":1}}');
  });
});
