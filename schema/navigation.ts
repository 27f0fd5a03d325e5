import {
  type HistoryStep,
  type NavigationOutcome,
  navigate,
  outlineNow,
} from '../domain/interaction/navigation.js';
import { builder } from './builder.js';
import { LoadStateEnum } from './load-state.js';
import { selectedFields } from './selection.js';
import { sessionArg } from './session-arg.js';
import { diffInSnapshot, QUIET_DIFF, SnapshotDiffRef, SnapshotRef } from './snapshot.js';
import { WindowRef } from './window.js';

const HISTORY_STEPS = {
  RELOAD: { description: 'Loads the document the window shows again.' },
  BACK: { description: "The window's previous history entry; NO_HISTORY_ENTRY when it has none." },
  FORWARD: { description: "The window's next history entry; NO_HISTORY_ENTRY when it has none." },
} as const satisfies Record<HistoryStep, { description: string }>;

const HistoryStepEnum = builder.enumType('HistoryStep', {
  description: "A navigation that needs no URL: a reload, or a step through the window's history.",
  values: HISTORY_STEPS,
});

const NavigationInput = builder.inputType('NavigationInput', {
  description: 'Where to go: exactly one of `url` and `step`.',
  fields: (t) => ({
    url: t.string({
      required: false,
      description:
        "An absolute http(s) URL, about:blank, or a file: URL under the server's upload roots (PATH_NOT_ALLOWED otherwise). URL_INVALID when it is not an absolute URL, URL_SCHEME_REFUSED for javascript: and every other scheme.",
    }),
    step: t.field({ type: HistoryStepEnum, required: false, description: 'Reload, back or forward.' }),
  }),
});

const NavigationResultRef = builder.objectRef<NavigationOutcome>('NavigationResult').implement({
  description: 'Where a navigation landed, read once it reached `waitUntil` (or its timeout ran out).',
  fields: (t) => ({
    window: t.field({
      type: WindowRef,
      description: 'The window as it is after: its id, its new url and title.',
      resolve: (outcome) => outcome.window,
    }),
    status: t.int({
      nullable: true,
      description:
        "The HTTP status of the new document's response; null where there was none (file:, about:blank, a same-document step).",
      resolve: (outcome) => outcome.status,
    }),
    waitUntil: t.field({
      type: LoadStateEnum,
      description: 'The load state it waited for.',
      resolve: (outcome) => outcome.waitUntil,
    }),
    reached: t.boolean({
      description:
        'True when the new document reached `waitUntil` in time. False: it committed (the window shows it) but was still loading when timeoutMs ran out — the navigation happened, so do not repeat it; read the window or wait with `snapshot(waitFor:)`.',
      resolve: (outcome) => outcome.reached,
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      nullable: true,
      description:
        'The window before against after, computed only when selected; `documentReplaced` is true when a new document loaded.',
      args: { quiet: t.arg.boolean({ required: false, defaultValue: false, description: QUIET_DIFF }) },
      resolve: (outcome, args) => (outcome.diff ? diffInSnapshot(outcome.diff, null, args.quiet) : null),
    }),
    outline: t.string({
      description:
        'The document the window shows now, as `Snapshot.outline` reads it, in the same round trip; read only when selected.',
      args: {
        interactiveOnly: t.arg.boolean({
          required: false,
          description: 'Only what an agent acts on (links, buttons, form controls); default false.',
        }),
      },
      resolve: (outcome, args, { sessions }) =>
        outlineNow(sessions.get(outcome.window.sessionId), outcome.window.id, args.interactiveOnly ?? false),
    }),
    elapsedMs: t.exposeInt('elapsedMs', {
      description: 'Milliseconds from the request to the answer, diff included.',
    }),
  }),
});

builder.mutationFields((t) => ({
  navigate: t.field({
    type: NavigationResultRef,
    description:
      'Takes a window to a URL, reloads it, or steps back or forward in its history, and waits until the new document reaches `waitUntil`. Refs of the document left answer REF_STALE. A network error is NAVIGATION_FAILED, nothing committed within timeoutMs NAVIGATION_TIMEOUT; a committed page still loading answers with `reached: false`.',
    requiresCapability: 'INTERACTION',
    governance: {
      session: 'session',
      window: 'window',
      actsOn: 'location',
      target: 'to',
    },
    args: {
      ...sessionArg,
      window: t.arg.id({ required: false, description: 'Default: the active window.' }),
      to: t.arg({ type: NavigationInput, required: true, description: 'A URL, or a history step.' }),
      waitUntil: t.arg({
        type: LoadStateEnum,
        required: false,
        description: 'How far the new document must load before the answer; default LOAD.',
      }),
      timeoutMs: t.arg.int({
        required: false,
        description: 'For the whole navigation, commit and load; default 30000, clamped to 60000.',
      }),
    },
    resolve: (_root, args, { sessions }, info) =>
      navigate(sessions.get(args.session == null ? null : String(args.session)), {
        window: args.window == null ? null : String(args.window),
        url: args.to.url ?? null,
        step: args.to.step ?? null,
        waitUntil: args.waitUntil ?? null,
        timeoutMs: args.timeoutMs ?? null,
        wantDiff: selectedFields(info, []).includes('diff'),
      }),
  }),
}));

/** The snapshot's own `waitFor` argument is declared with its other arguments in snapshot.ts. */
builder.objectFields(SnapshotRef, (t) => ({
  loadReached: t.boolean({
    nullable: true,
    description:
      'With `waitFor`: true when the document had loaded that far before it was read, false when 30 s ran out first (the read shows it as it was then); null without `waitFor`.',
    resolve: (view) => view.loadReached,
  }),
}));
