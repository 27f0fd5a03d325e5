import { describe, expect, it } from 'vitest';
import { NOTIFICATION_CAPACITY, NotificationLog } from './notification-log.js';

const shown = (title: string, time: Date) => ({
  title,
  body: '',
  subtitle: '',
  silent: false,
  urgency: 'normal',
  time: time.toISOString(),
});

describe('NotificationLog', () => {
  it('numbers only what capture keeps, and tags what came before arming', () => {
    const log = new NotificationLog('s1');
    const armedAt = new Date('2030-01-01T00:00:10Z');
    expect(log.record(shown('boot', new Date('2030-01-01T00:00:00Z')))).toMatchObject({
      seq: 1,
      sessionId: 's1',
      beforeArm: true,
    });
    log.arm('Build', armedAt);
    expect(log.record(shown('Other', new Date('2030-01-01T00:00:11Z')))).toBeUndefined();
    expect(log.record(shown('Build done', new Date('2030-01-01T00:00:12Z')))).toMatchObject({
      seq: 2,
      beforeArm: false,
    });
    expect(log.read().map((entry) => entry.title)).toEqual(['boot', 'Build done']);
    expect(log.read('Build').map((entry) => entry.seq)).toEqual([2]);
  });

  it(`keeps the newest ${NOTIFICATION_CAPACITY} and counts what overflowed`, () => {
    const log = new NotificationLog('s1');
    for (let i = 1; i <= NOTIFICATION_CAPACITY + 5; i += 1) log.record(shown(`n${i}`, new Date()));
    expect(log.overflowed).toBe(5);
    expect(log.read()[0]).toMatchObject({ seq: 6, title: 'n6' });
  });
});
