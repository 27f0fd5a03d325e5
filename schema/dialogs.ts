import type { LogSnapshot } from '../resolvers/bounded/sequenced-log.js';
import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { dialogStream } from '../resolvers/capture/capture-streams.js';
import type { DialogPolicySpec } from '../resolvers/capture/dialog-policy.js';
import type { DialogEntry } from '../resolvers/capture/dialogs.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { SessionRef } from './session.js';

const DialogTypeEnum = builder.enumType('DialogType', {
  values: {
    ALERT: { value: 'alert' },
    CONFIRM: { value: 'confirm' },
    PROMPT: { value: 'prompt' },
    BEFOREUNLOAD: { value: 'beforeunload' },
  } as const,
});

const DialogActionEnum = builder.enumType('DialogAction', { values: ['ACCEPT', 'DISMISS'] as const });

const DialogEntryRef = builder.objectRef<DialogEntry>('DialogEntry').implement({
  description: 'A JS dialog a renderer opened, and how the session policy answered it.',
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    sessionId: t.exposeID('sessionId'),
    time: t.field({ type: 'DateTime', resolve: (entry) => entry.time }),
    type: t.field({ type: DialogTypeEnum, resolve: (entry) => entry.type }),
    message: t.exposeString('message'),
    defaultValue: t.exposeString('defaultValue', {
      description: "A prompt's default value; empty otherwise.",
    }),
    action: t.field({ type: DialogActionEnum, resolve: (entry) => entry.action }),
    promptText: t.exposeString('promptText', {
      nullable: true,
      description: 'What an accepted prompt answered.',
    }),
    windowId: t.exposeID('windowId', { nullable: true }),
  }),
});

const DialogLogRef = builder.objectRef<LogSnapshot<DialogEntry>>('DialogLog').implement({
  description: 'A read of the bounded dialog buffer (the newest 200).',
  fields: (t) => ({
    entries: t.field({ type: [DialogEntryRef], resolve: (log) => log.entries }),
    overflowed: t.exposeInt('overflowed'),
    total: t.exposeInt('total'),
  }),
});

const DialogPolicyRef = builder.objectRef<DialogPolicySpec>('DialogPolicy').implement({
  description: 'How the next dialogs are answered. Before any is set: dismiss everything.',
  fields: (t) => ({
    default: t.field({ type: DialogActionEnum, resolve: (policy) => policy.default }),
    alert: t.field({ type: DialogActionEnum, nullable: true, resolve: (policy) => policy.alert ?? null }),
    confirm: t.field({ type: DialogActionEnum, nullable: true, resolve: (policy) => policy.confirm ?? null }),
    prompt: t.field({ type: DialogActionEnum, nullable: true, resolve: (policy) => policy.prompt ?? null }),
    beforeunload: t.field({
      type: DialogActionEnum,
      nullable: true,
      resolve: (policy) => policy.beforeunload ?? null,
    }),
    promptText: t.string({ nullable: true, resolve: (policy) => policy.promptText ?? null }),
    oneShot: t.boolean({ resolve: (policy) => policy.oneShot ?? false }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  dialogs: t.field({
    type: DialogLogRef,
    description: 'Dialogs the renderers opened and how each was answered; readable after the app ends.',
    ...requiresCapability('DIALOGS'),
    args: { last: t.arg.int({ required: false }), afterSeq: t.arg.int({ required: false }) },
    resolve: (session, args) => session.capture.dialogs.log.snapshot(args),
  }),
  dialogPolicy: t.field({
    type: DialogPolicyRef,
    ...requiresCapability('DIALOGS'),
    resolve: (session) => session.capture.dialogs.policy.current,
  }),
}));

builder.mutationField('setDialogPolicy', (t) =>
  t.field({
    type: DialogPolicyRef,
    description:
      'How dialogs are answered from now on: a default, per-type overrides, prompt text, one-shot.',
    ...requiresCapability('DIALOGS'),
    args: {
      session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
      default: t.arg({ type: DialogActionEnum, required: true }),
      alert: t.arg({ type: DialogActionEnum, required: false }),
      confirm: t.arg({ type: DialogActionEnum, required: false }),
      prompt: t.arg({ type: DialogActionEnum, required: false }),
      beforeunload: t.arg({ type: DialogActionEnum, required: false }),
      promptText: t.arg.string({
        required: false,
        description: "An accepted prompt's answer; else its default.",
      }),
      oneShot: t.arg.boolean({
        required: false,
        description: 'Only the next dialog; then dismiss everything.',
      }),
    },
    resolve: (_root, { session, ...spec }, { sessions }) =>
      sessions.get(session).capture.dialogs.setPolicy({ ...spec, oneShot: spec.oneShot ?? false }),
  }),
);

const DialogEventRef = builder.objectRef<Delivery<DialogEntry>>('DialogEvent').implement({
  fields: (t) => ({
    entry: t.field({ type: DialogEntryRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore'),
  }),
});

builder.subscriptionField('dialogs', (t) =>
  t.field({
    type: DialogEventRef,
    description:
      'Dialogs as they are answered; the same entries `Session.dialogs` shows. Without `session`: every session whose transport has DIALOGS.',
    ...requiresCapability('DIALOGS', { perEventSource: true }),
    args: {
      session: t.arg.id({ required: false }),
      replay: t.arg.boolean({ required: false, description: 'Start with the buffered entries.' }),
    },
    subscribe: (_root, args, { hub, sessions }) => dialogStream(hub, sessions, args),
    resolve: (delivery) => delivery,
  }),
);
