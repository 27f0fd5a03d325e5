import { type ActionOutcome, type ActionSpec, performAction } from '../resolvers/interaction/action.js';
import type { TargetRequest } from '../resolvers/interaction/target-input.js';
import type { Modifier } from '../transports/window-driver.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import type { GatewayContext } from './context.js';
import { selectedFields } from './selection.js';
import { SnapshotDiffRef, SnapshotNodeRef } from './snapshot.js';
import { TargetInput } from './target.js';

const ActionResultRef = builder.objectRef<ActionOutcome>('ActionResult').implement({
  description: 'What an action landed on and, when selected, what it changed: one round trip.',
  fields: (t) => ({
    windowId: t.exposeID('windowId'),
    target: t.field({
      type: SnapshotNodeRef,
      nullable: true,
      description: 'The element acted on, by ref, as it is after the action.',
      resolve: (outcome) => (outcome.target ? { node: outcome.target, snapshot: null } : null),
    }),
    diff: t.field({
      type: SnapshotDiffRef,
      nullable: true,
      description: 'What changed in the window once it settled; computed only when selected.',
      resolve: (outcome) => (outcome.diff ? { diff: outcome.diff, snapshot: null } : null),
    }),
    elapsedMs: t.exposeInt('elapsedMs'),
  }),
});

const MouseButtonEnum = builder.enumType('MouseButton', { values: ['LEFT', 'RIGHT', 'MIDDLE'] as const });
const ModifierEnum = builder.enumType('KeyModifier', {
  values: ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const satisfies readonly Modifier[],
});
const PointInput = builder.inputType('PointInput', {
  description: 'CSS pixels from the top-left of the target element.',
  fields: (t) => ({ x: t.float({ required: true }), y: t.float({ required: true }) }),
});

interface CommonArgs {
  readonly session?: string | number | null;
  readonly window?: string | number | null;
  readonly target?: TargetRequest | null;
  readonly timeoutMs?: number | null;
}

/** Every action takes the same session, window and timeout arguments; this is their one definition. */
function run(
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
    wantTarget: selected.includes('target'),
    diffBounds: selectedFields(info, ['diff', 'added']).includes('bbox'),
    previewed: context.previewedTarget ?? null,
  });
}

builder.mutationFields((t) => {
  const common = (targetRequired: boolean) => ({
    session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
    window: t.arg.id({
      required: false,
      description: "Default: the target ref's window, else the active one.",
    }),
    target: t.arg({ type: TargetInput, required: targetRequired }),
    timeoutMs: t.arg.int({
      required: false,
      description: 'Actionability wait; default 5000, clamped to 30000.',
    }),
  });
  const action = { type: ActionResultRef, ...requiresCapability('INTERACTION') } as const;
  return {
    click: t.field({
      ...action,
      description: 'Clicks once the target is visible, stable, enabled and not covered.',
      args: {
        ...common(true),
        button: t.arg({ type: MouseButtonEnum, required: false }),
        clickCount: t.arg.int({ required: false }),
        modifiers: t.arg({ type: [ModifierEnum], required: false }),
        position: t.arg({ type: PointInput, required: false }),
      },
      resolve: (_root, args, context, info) =>
        run(context, info, args, {
          type: 'click',
          ...(args.button ? { button: args.button.toLowerCase() as 'left' | 'right' | 'middle' } : {}),
          ...(args.clickCount ? { clickCount: args.clickCount } : {}),
          ...(args.modifiers ? { modifiers: args.modifiers } : {}),
          ...(args.position ? { position: args.position } : {}),
        }),
    }),
    fill: t.field({
      ...action,
      description: 'Sets the value of an input, textarea or contenteditable in one step.',
      args: {
        ...common(true),
        value: t.arg.string({ required: true }),
        secret: t.arg.boolean({ required: false, description: 'Redact this value everywhere from now on.' }),
      },
      resolve: (_root, args, context, info) =>
        run(context, info, args, { type: 'fill', value: args.value }, args.secret),
    }),
    type: t.field({
      ...action,
      description: 'Types text as real key presses into the focused target.',
      args: {
        ...common(true),
        text: t.arg.string({ required: true }),
        delayMs: t.arg.int({ required: false }),
        secret: t.arg.boolean({ required: false }),
      },
      resolve: (_root, args, context, info) =>
        run(
          context,
          info,
          args,
          { type: 'type', text: args.text, ...(args.delayMs ? { delayMs: args.delayMs } : {}) },
          args.secret,
        ),
    }),
    press: t.field({
      ...action,
      description: 'Presses a key or chord ("Enter", "Control+A") on the target, or on whatever has focus.',
      args: { ...common(false), key: t.arg.string({ required: true }) },
      resolve: (_root, args, context, info) => run(context, info, args, { type: 'pressKeys', key: args.key }),
    }),
    hover: t.field({
      ...action,
      args: common(true),
      resolve: (_root, args, context, info) => run(context, info, args, { type: 'hover' }),
    }),
    focus: t.field({
      ...action,
      args: common(true),
      resolve: (_root, args, context, info) => run(context, info, args, { type: 'focus' }),
    }),
    clear: t.field({
      ...action,
      description: 'Empties an input or textarea.',
      args: common(true),
      resolve: (_root, args, context, info) => run(context, info, args, { type: 'clear' }),
    }),
    selectOption: t.field({
      ...action,
      description: 'Selects options of a <select> by value, label or index (several for a multiple select).',
      args: {
        ...common(true),
        values: t.arg.stringList({ required: false }),
        labels: t.arg.stringList({ required: false }),
        indexes: t.arg.intList({ required: false }),
      },
      resolve: (_root, args, context, info) =>
        run(context, info, args, {
          type: 'selectOption',
          ...(args.values ? { values: args.values } : {}),
          ...(args.labels ? { labels: args.labels } : {}),
          ...(args.indexes ? { indexes: args.indexes } : {}),
        }),
    }),
    setChecked: t.field({
      ...action,
      description: 'Checks or unchecks a checkbox or radio button (no-op when already so).',
      args: { ...common(true), checked: t.arg.boolean({ required: true }) },
      resolve: (_root, args, context, info) =>
        run(context, info, args, { type: 'setChecked', checked: args.checked }),
    }),
    setInputFiles: t.field({
      ...action,
      description: "Sets the files of a file input; paths must lie under the server's upload roots.",
      args: { ...common(true), paths: t.arg.stringList({ required: true }) },
      resolve: (_root, args, context, info) =>
        run(context, info, args, { type: 'setInputFiles', paths: args.paths }),
    }),
    dragTo: t.field({
      ...action,
      description: 'Drags the target onto another element.',
      args: { ...common(true), to: t.arg({ type: TargetInput, required: true }) },
      resolve: (_root, args, context, info) => run(context, info, args, { type: 'dragTo', to: args.to }),
    }),
    scroll: t.field({
      ...action,
      description: 'Scrolls the target into view, or scrolls the page (or the target) by a delta.',
      args: {
        ...common(false),
        intoView: t.arg.boolean({ required: false }),
        deltaX: t.arg.int({ required: false }),
        deltaY: t.arg.int({ required: false }),
      },
      resolve: (_root, args, context, info) =>
        run(
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
