import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ClockControl } from '../../transports/contract/renderer-control.js';
import { CLOCK_TIME_MAX, CLOCK_TIME_MIN, SessionClock } from './clock.js';

/** The last instant JavaScript's Date holds: 8.64e15 ms, +275760-09-13T00:00:00.000Z. */
const DATE_END = new Date(8.64e15);

/** A page's fake clock as Playwright keeps it: set to a time, it reads that time plus what has elapsed. */
function pageClock(elapsedMs = 5): { control: ClockControl; set: Date[] } {
  const set: Date[] = [];
  let at: number | undefined;
  const move = async (time: Date) => {
    set.push(time);
    at = time.getTime();
  };
  const control: ClockControl = {
    install: async (time) => move(time ?? new Date()),
    setFixedTime: move,
    setSystemTime: move,
    pauseAt: move,
    advance: async () => {},
    runFor: async () => {},
    resume: async () => {},
    now: async () => (at === undefined ? null : new Date(at + elapsedMs)),
  };
  return { control, set };
}

const printed = (clock: SessionClock) => clock.state().then((state) => state.now?.toISOString() ?? null);

describe('a fake clock set outside years 0000 to 9999', () => {
  // Found by the schema fuzz (issue 31): setSystemTime(+275760-09-13T00:00:00.000Z) set the page's clock to
  // Date's last instant; a millisecond later it read past it, and that call and every later `{ now }`
  // answered INTERNAL (toISOString of an invalid Date).
  it.each([
    ['installClock', (clock: SessionClock, time: Date) => clock.install(time)],
    ['setFixedTime', (clock: SessionClock, time: Date) => clock.setFixedTime(time)],
    ['setSystemTime', (clock: SessionClock, time: Date) => clock.setSystemTime(time)],
    [
      'pauseClockAt',
      async (clock: SessionClock, time: Date) => {
        await clock.install(new Date('2030-01-01T00:00:00Z'));
        return clock.pauseAt(time);
      },
    ],
  ])('%s refuses it with BAD_INPUT up front, and later reads still answer', async (_, mutate) => {
    for (const time of [
      DATE_END,
      new Date(-8.64e15),
      new Date(CLOCK_TIME_MAX.getTime() + 1),
      new Date(CLOCK_TIME_MIN.getTime() - 1),
    ]) {
      const { control, set } = pageClock();
      const clock = new SessionClock('s1', () => control);
      const error = await mutate(clock, time).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(StagegraphError);
      expect((error as StagegraphError).code).toBe('BAD_INPUT');
      expect((error as StagegraphError).message).toContain('`time`');
      expect(set.every((reached) => reached >= CLOCK_TIME_MIN && reached <= CLOCK_TIME_MAX)).toBe(true);
      await expect(printed(clock)).resolves.toSatisfy((now) => now === null || typeof now === 'string');
    }
  });

  it('takes the range’s ends', async () => {
    const { control } = pageClock(0);
    const clock = new SessionClock('s1', () => control);
    await clock.setSystemTime(CLOCK_TIME_MAX);
    expect(await printed(clock)).toBe('9999-12-31T23:59:59.999Z');
    await clock.setSystemTime(CLOCK_TIME_MIN);
    expect(await printed(clock)).toBe('0000-01-01T00:00:00.000Z');
  });

  it('reads a page clock that ran past Date’s end (set by the app, not here) as no reading, not an invalid Date', async () => {
    const control: ClockControl = { ...pageClock().control, now: async () => new Date(Number.NaN) };
    const clock = new SessionClock('s1', () => control);
    await clock.install(null);
    expect((await clock.state()).now).toBeNull();
  });
});
