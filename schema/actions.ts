import { type ActionOutcome, type ActionSpec, performAction } from '../domain/interaction/action.js';
import type { SettleReport } from '../domain/interaction/settle.js';
import type { TargetRequest } from '../domain/interaction/target-input.js';
import type { Modifier, PendingRequest } from '../transports/contract/window-driver.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { previewedTargetOf } from './gates/governance.js';
import { selectedFields } from './selection.js';
import { sessionArg } from './session-arg.js';
import { diffInSnapshot, QUIET_DIFF, SnapshotDiffRef, SnapshotNodeRef } from './snapshot.js';
import { ResolvedByRef, TargetInput } from './target.js';

const PendingRequestRef = builder.objectRef<PendingRequest>('PendingRequest').implement({
  description: 'A request an action started that had not finished when its effect was read.',
  fields: (t) => ({
    method: t.exposeString('method', { description: 'The HTTP method: GET, POST, …' }),
    url: t.exposeString('url', { description: 'The URL requested.' }),
    resourceType: t.exposeString('resourceType', {
      description:
        'What the page asked for: document (a navigation), fetch, xhr, script, stylesheet, image, …',
    }),
  }),
});

const ActionSettleRef = builder.objectRef<SettleReport>('ActionSettle').implement({
  description:
    "How an action's effect was waited for before `diff` was read: first the requests and navigations the action started (not those already running, nor event streams, web sockets or media), for at most its `timeoutMs`; then for the page to make no DOM change for 80 ms (at most 1 s). A request that starts while the page settles is waited for in turn.",
  fields: (t) => ({
    requestsFinished: t.exposeInt('requestsFinished', {
      description: 'Requests the action started that finished or failed before the diff was read.',
    }),
    stillPending: t.field({
      type: [PendingRequestRef],
      description:
        'Requests the action started that were still running when the wait gave up at `timeoutMs` (a long poll, a hung server): the diff does not show what they will bring. Empty when the effect was complete.',
      resolve: (report) => report.stillPending,
    }),
    waitedMs: t.exposeInt('waitedMs', {
      description: 'Milliseconds from the end of the action to the read: what the wait cost.',
    }),
  }),
});

const ActionResultRef = builder.objectRef<ActionOutcome>('ActionResult').implement({
  description: 'What an action landed on and, when selected, what it changed: one round trip.',
  fields: (t) => ({
    windowId: t.exposeID('windowId', { description: 'The window the action ran in.' }),
    target: t.field({
      type: SnapshotNodeRef,
      nullable: true,
      description:
        'The element acted on, by ref: its name as it was when acted on (`nameAfter` says when the action renamed it), its value and states as they are after the action; null for a key press or page scroll without a target. Read alone: its `parent` is null, `children` empty and `text` its name.',
      resolve: (outcome) => (outcome.target ? { node: outcome.target, snapshot: null } : null),
    }),
    nameAfter: t.exposeString('nameAfter', {
      nullable: true,
      description:
        'The target\'s accessible name after the action, when the action changed it (a "Try it out" button that became "Cancel"); null when it kept its name.',
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      nullable: true,
      description:
        'What changed in the window once it settled (see `settle`): the requests the action started have finished and the page is quiet. Computed only when selected.',
      args: { quiet: t.arg.boolean({ required: false, defaultValue: false, description: QUIET_DIFF }) },
      resolve: (outcome, args) => (outcome.diff ? diffInSnapshot(outcome.diff, null, args.quiet) : null),
    }),
    settle: t.field({
      type: ActionSettleRef,
      nullable: true,
      description:
        'How the effect was waited for: requests finished, and those still running when the wait gave up. Selecting it waits for the effect even without `diff`.',
      resolve: (outcome) => outcome.settle,
    }),
    resolvedBy: t.field({
      type: ResolvedByRef,
      nullable: true,
      description:
        'How the target was found (strategy) and how much to trust it (confidence); null for a key press or page scroll without a target.',
      resolve: (outcome) => outcome.resolvedBy,
    }),
    elapsedMs: t.exposeInt('elapsedMs', {
      description:
        'Milliseconds the whole action took: finding the target, acting and, when selected, reading the diff.',
    }),
  }),
});

const MouseButtonEnum = builder.enumType('MouseButton', {
  description: 'A mouse button.',
  values: {
    LEFT: { description: 'The primary button (the default).' },
    RIGHT: { description: "The secondary button: opens a page's context menu." },
    MIDDLE: { description: 'The middle button (the wheel).' },
  } as const,
});
const MODIFIERS = {
  Alt: { description: 'Alt (Option on macOS).' },
  Control: { description: 'Control.' },
  ControlOrMeta: { description: 'Control on Linux and Windows, Meta (Command) on macOS.' },
  Meta: { description: 'Meta: Command on macOS, the Windows key elsewhere.' },
  Shift: { description: 'Shift.' },
} as const satisfies Record<Modifier, { description: string }>;
const ModifierEnum = builder.enumType('KeyModifier', {
  description: 'A modifier key held down during a click.',
  values: MODIFIERS,
});
const PointInput = builder.inputType('PointInput', {
  description: 'CSS pixels from the top-left of the target element.',
  fields: (t) => ({
    x: t.float({ required: true, description: 'CSS pixels right of the left edge.' }),
    y: t.float({ required: true, description: 'CSS pixels below the top edge.' }),
  }),
});

/** What the `target` argument of an action says when the action names none of its own. */
const TARGET_DESCRIPTION =
  "The element to act on; a ref from a snapshot is best. SELECTOR_NO_MATCH (with similarRefs) when nothing matches within timeoutMs, AMBIGUOUS_TARGET when several do and `nth` is not given, REF_STALE when a ref's element has left the page.";

interface CommonArgs {
  readonly session?: string | number | null;
  readonly window?: string | number | null;
  readonly target?: TargetRequest | null;
  readonly timeoutMs?: number | null;
}

/** Every action takes the same session, window and timeout arguments; this is their one definition. */
function run(
  root: unknown,
  context: GatewayContext,
  info: Parameters<typeof selectedFields>[0],
  args: CommonArgs,
  action: ActionSpec,
  secret?: boolean | null,
) {
  const selected = selectedFields(info, []);
  return performAction(context.sessions.get(args.session == null ? null : String(args.session)), {
    window: args.window == null ? null : String(args.window),
    target: args.target ?? null,
    action,
    timeoutMs: args.timeoutMs ?? null,
    secret: secret ?? null,
    wantDiff: selected.includes('diff'),
    wantSettle: selected.includes('settle'),
    wantTarget: selected.includes('target'),
    diffBounds: selectedFields(info, ['diff', 'added']).includes('bbox'),
    previewed: previewedTargetOf(root),
  });
}

/** The named arguments the caller gave (absent ones arrive as null), for the optional parts of an action. */
function given<Args, Name extends keyof Args>(
  args: Args,
  ...names: Name[]
): { [N in Name]?: NonNullable<Args[N]> } {
  const picked: { [N in Name]?: NonNullable<Args[N]> } = {};
  for (const name of names) if (args[name]) picked[name] = args[name] as NonNullable<Args[Name]>;
  return picked;
}

/**
 * Every action acts on the element its `target` names, in the session and window its arguments name, and
 * its preview waits no longer than its own `timeoutMs`.
 */
const onElement = {
  session: 'session',
  window: 'window',
  target: 'target',
  actsOn: 'element',
  risk: { wait: 'timeoutMs' },
} as const;

builder.mutationFields((t) => {
  const common = (targetRequired: boolean, targetDescription: string = TARGET_DESCRIPTION) => ({
    ...sessionArg,
    window: t.arg.id({
      required: false,
      description: "Default: the target ref's window, else the active one.",
    }),
    target: t.arg({ type: TargetInput, required: targetRequired, description: targetDescription }),
    timeoutMs: t.arg.int({
      required: false,
      description: 'Actionability wait; default 5000, clamped to 30000.',
    }),
  });
  const action = { type: ActionResultRef, requiresCapability: 'INTERACTION', governance: onElement } as const;
  return {
    click: t.field({
      ...action,
      description: 'Clicks once the target is visible, stable, enabled and not covered.',
      args: {
        ...common(true),
        button: t.arg({ type: MouseButtonEnum, required: false, description: 'Default LEFT.' }),
        clickCount: t.arg.int({
          required: false,
          description: 'Clicks in a row: 2 for a double click; default 1.',
        }),
        modifiers: t.arg({
          type: [ModifierEnum],
          required: false,
          description: 'Keys held down during the click.',
        }),
        position: t.arg({
          type: PointInput,
          required: false,
          description: "Where to click, from the target's top-left corner; default: its centre.",
        }),
      },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, {
          type: 'click',
          ...(args.button ? { button: args.button.toLowerCase() as 'left' | 'right' | 'middle' } : {}),
          ...given(args, 'clickCount', 'modifiers', 'position'),
        }),
    }),
    fill: t.field({
      ...action,
      description: 'Sets the value of an input, textarea or contenteditable in one step.',
      args: {
        ...common(true),
        value: t.arg.string({
          required: true,
          description: 'The whole new value; it replaces what was there.',
        }),
        secret: t.arg.boolean({ required: false, description: 'Redact this value everywhere from now on.' }),
      },
      governance: { ...onElement, risk: { wait: 'timeoutMs', typed: ['value'], secret: 'secret' } },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, { type: 'fill', value: args.value }, args.secret),
    }),
    type: t.field({
      ...action,
      description: 'Types text as real key presses into the focused target.',
      args: {
        ...common(true),
        text: t.arg.string({
          required: true,
          description:
            'Typed into the target after focusing it, one key event per character (fill sets a value in one step).',
        }),
        delayMs: t.arg.int({
          required: false,
          description:
            'Milliseconds between key presses: 0 (the default) to 1000, and the whole text typed this way (its length times this) must fit in timeoutMs, or BAD_INPUT says what delay would.',
        }),
        secret: t.arg.boolean({
          required: false,
          description:
            'The text is a secret: redacted in the audit trail and approval requests, and the target\'s value reads "[redacted]" in every snapshot from now on.',
        }),
      },
      governance: { ...onElement, risk: { wait: 'timeoutMs', typed: ['text'], secret: 'secret' } },
      resolve: (root, args, context, info) =>
        run(
          root,
          context,
          info,
          args,
          { type: 'type', text: args.text, ...(args.delayMs != null ? { delayMs: args.delayMs } : {}) },
          args.secret,
        ),
    }),
    press: t.field({
      ...action,
      description: 'Presses a key or chord ("Enter", "Control+A") on the target, or on whatever has focus.',
      args: {
        ...common(
          false,
          'The element to press the key on (focused first); without it the key goes to whatever has focus.',
        ),
        key: t.arg.string({
          required: true,
          description:
            "A key or chord in Playwright's notation: Enter, Tab, ArrowDown, Control+A, Shift+Home.",
        }),
      },
      governance: { ...onElement, risk: { wait: 'timeoutMs', typed: ['key'] } },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, { type: 'pressKeys', key: args.key }),
    }),
    hover: t.field({
      ...action,
      description: 'Moves the mouse over the target once it is visible and stable (tooltips, hover menus).',
      args: common(true),
      resolve: (root, args, context, info) => run(root, context, info, args, { type: 'hover' }),
    }),
    focus: t.field({
      ...action,
      description: 'Gives the target keyboard focus without clicking it.',
      args: common(true),
      resolve: (root, args, context, info) => run(root, context, info, args, { type: 'focus' }),
    }),
    clear: t.field({
      ...action,
      description: 'Empties an input or textarea.',
      args: common(true),
      resolve: (root, args, context, info) => run(root, context, info, args, { type: 'clear' }),
    }),
    selectOption: t.field({
      ...action,
      description: 'Selects options of a <select> by value, label or index (several for a multiple select).',
      args: {
        ...common(true),
        values: t.arg.stringList({ required: false, description: 'Options by their value attribute.' }),
        labels: t.arg.stringList({ required: false, description: 'Options by their visible label.' }),
        indexes: t.arg.intList({ required: false, description: 'Options by zero-based position.' }),
      },
      governance: { ...onElement, risk: { wait: 'timeoutMs', typed: ['values', 'labels'] } },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, {
          type: 'selectOption',
          ...given(args, 'values', 'labels', 'indexes'),
        }),
    }),
    setChecked: t.field({
      ...action,
      description: 'Checks or unchecks a checkbox or radio button (no-op when already so).',
      args: {
        ...common(true),
        checked: t.arg.boolean({ required: true, description: 'True to check, false to uncheck.' }),
      },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, { type: 'setChecked', checked: args.checked }),
    }),
    setInputFiles: t.field({
      ...action,
      description: "Sets the files of a file input; paths must lie under the server's upload roots.",
      args: {
        ...common(true),
        paths: t.arg.stringList({
          required: true,
          description:
            'Paths of existing files under the upload roots (symlinks resolved): PATH_NOT_ALLOWED outside them, BAD_INPUT for a missing file. An empty list clears the input.',
        }),
      },
      resolve: (root, args, context, info) =>
        run(root, context, info, args, { type: 'setInputFiles', paths: args.paths }),
    }),
    dragTo: t.field({
      ...action,
      description: 'Drags the target onto another element.',
      args: {
        ...common(true, 'The element to drag; a ref from a snapshot is best.'),
        to: t.arg({ type: TargetInput, required: true, description: 'The element to drop it on.' }),
      },
      resolve: (root, args, context, info) => run(root, context, info, args, { type: 'dragTo', to: args.to }),
    }),
    scroll: t.field({
      ...action,
      description: 'Scrolls the target into view, or scrolls the page (or the target) by a delta.',
      args: {
        ...common(
          false,
          'The element to scroll into view, or whose own scroll position moves by the deltas; without it the page scrolls.',
        ),
        intoView: t.arg.boolean({
          required: false,
          description:
            'Scroll the target into view (it needs `target`, else BAD_INPUT); the deltas are then ignored.',
        }),
        deltaX: t.arg.int({
          required: false,
          description: 'CSS pixels to the right (negative: left); default 0.',
        }),
        deltaY: t.arg.int({ required: false, description: 'CSS pixels down (negative: up); default 0.' }),
      },
      resolve: (root, args, context, info) =>
        run(
          root,
          context,
          info,
          args,
          args.intoView
            ? { type: 'scrollIntoView' }
            : { type: 'scrollBy', dx: args.deltaX ?? 0, dy: args.deltaY ?? 0 },
        ),
    }),
  };
});
