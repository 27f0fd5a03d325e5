import type { ClockState } from '../domain/page-state/clock.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';

const ClockRef = builder.objectRef<ClockState>('Clock').implement({
  description: "The renderers' fake clock: Date and timers follow it once installed.",
  fields: (t) => ({
    installed: t.exposeBoolean('installed', {
      description:
        'Whether a fake clock is installed: installClock, setFixedTime or setSystemTime installs one.',
    }),
    paused: t.exposeBoolean('paused', {
      description: 'True after pauseAt until resume: time moves only when told.',
    }),
    now: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The fake time a page reads now; null when not installed, or when no window answers.',
      resolve: (clock) => clock.now,
    }),
  }),
});

builder.objectField(SessionRef, 'clock', (t) =>
  t.field({
    type: ClockRef,
    description: "The state of the fake clock of this session's windows.",
    requiresCapability: 'CLOCK',
    resolve: (session) => session.pageState.clock.state(),
  }),
);

builder.mutationFields((t) => {
  const clock = { type: ClockRef, requiresCapability: 'CLOCK', governance: { session: 'session' } } as const;
  const time = (description: string) => t.arg({ type: 'DateTime', required: true, description });
  const ms = t.arg.int({ required: true, description: 'Milliseconds of fake time, 0..86400000.' });
  return {
    installClock: t.field({
      ...clock,
      description:
        'Replaces Date and timers in every window (current and future documents) with a fake clock.',
      args: {
        ...sessionArg,
        time: t.arg({ type: 'DateTime', required: false, description: 'Start time; default now.' }),
      },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).pageState.clock.install(args.time ?? null),
    }),
    setFixedTime: t.field({
      ...clock,
      description: 'Date always reads this time; timers keep running.',
      args: { ...sessionArg, time: time('The instant Date reads from now on.') },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).pageState.clock.setFixedTime(args.time),
    }),
    setSystemTime: t.field({
      ...clock,
      description: 'Moves Date to this time without firing timers (a wall-clock change).',
      args: { ...sessionArg, time: time('The new wall-clock time.') },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).pageState.clock.setSystemTime(args.time),
    }),
    advanceClock: t.field({
      ...clock,
      description: 'Jumps ahead, firing each due timer at most once (a laptop waking from sleep).',
      args: { ...sessionArg, ms },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.clock.advance(args.ms),
    }),
    runClockFor: t.field({
      ...clock,
      description: 'Runs time forward, firing every timer due on the way, in order.',
      args: { ...sessionArg, ms },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.clock.runFor(args.ms),
    }),
    pauseClockAt: t.field({
      ...clock,
      description: 'Runs time forward to this instant, then stops it: timers fire only when told.',
      args: {
        ...sessionArg,
        time: time('The instant to run to and stop at. CLOCK_NOT_INSTALLED when no fake clock is installed.'),
      },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.clock.pauseAt(args.time),
    }),
    resumeClock: t.field({
      ...clock,
      description: 'Lets paused fake time flow again in step with real time.',
      args: sessionArg,
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.clock.resume(),
    }),
  };
});
