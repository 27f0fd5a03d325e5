import type { LogSnapshot } from '../domain/bounded/sequenced-log.js';
import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { DialogPolicySpec } from '../domain/page-state/dialog-policy.js';
import type { DialogEntry } from '../domain/page-state/dialogs.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

const DialogTypeEnum = builder.enumType('DialogType', {
  description: 'The kind of JS dialog a page opened.',
  values: {
    ALERT: { value: 'alert', description: 'window.alert: a message with OK.' },
    CONFIRM: { value: 'confirm', description: 'window.confirm: OK (accept) or Cancel (dismiss).' },
    PROMPT: { value: 'prompt', description: 'window.prompt: a text answer (accept) or Cancel (dismiss).' },
    BEFOREUNLOAD: {
      value: 'beforeunload',
      description: 'A beforeunload handler asked to stay on the page: accept leaves, dismiss stays.',
    },
  } as const,
});

const DialogActionEnum = builder.enumType('DialogAction', {
  description: 'How a JS dialog is answered.',
  values: {
    ACCEPT: { description: 'Press OK (a prompt answers with its text).' },
    DISMISS: { description: 'Press Cancel (an alert is simply closed).' },
  } as const,
});

const DialogEntryRef = builder.objectRef<DialogEntry>('DialogEntry').implement({
  description: 'A JS dialog a renderer opened, and how the session policy answered it.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing: resume with `afterSeq`.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session whose renderer opened it.' }),
    time: t.field({ type: 'DateTime', description: 'When it was answered.', resolve: (entry) => entry.time }),
    type: t.field({
      type: DialogTypeEnum,
      description: 'Which kind of dialog.',
      resolve: (entry) => entry.type,
    }),
    message: t.exposeString('message', { description: 'The text the page showed in it.' }),
    defaultValue: t.exposeString('defaultValue', {
      description: "A prompt's default value; empty otherwise.",
    }),
    action: t.field({
      type: DialogActionEnum,
      description: 'How the policy answered it.',
      resolve: (entry) => entry.action,
    }),
    promptText: t.exposeString('promptText', {
      nullable: true,
      description: 'What an accepted prompt answered.',
    }),
    windowId: t.exposeID('windowId', {
      nullable: true,
      description: 'The window (`w1`, ...) whose page opened it; null when not known.',
    }),
  }),
});

const DialogLogRef = builder.objectRef<LogSnapshot<DialogEntry>>('DialogLog').implement({
  description: 'A read of the bounded dialog buffer (the newest 200).',
  fields: (t) => ({
    entries: t.field({
      type: [DialogEntryRef],
      description: 'The entries still in the buffer, oldest first.',
      resolve: (log) => log.entries,
    }),
    overflowed: t.exposeInt('overflowed', { description: 'Entries pushed out of the buffer so far.' }),
    total: t.exposeInt('total', { description: 'Dialogs ever answered in this session.' }),
  }),
});

const DialogPolicyRef = builder.objectRef<DialogPolicySpec>('DialogPolicy').implement({
  description: 'How the next dialogs are answered. Before any is set: dismiss everything.',
  fields: (t) => ({
    default: t.field({
      type: DialogActionEnum,
      description: 'The answer for every type without its own override.',
      resolve: (policy) => policy.default,
    }),
    alert: t.field({
      type: DialogActionEnum,
      nullable: true,
      description: 'The answer for alerts; null means `default`.',
      resolve: (policy) => policy.alert ?? null,
    }),
    confirm: t.field({
      type: DialogActionEnum,
      nullable: true,
      description: 'The answer for confirms; null means `default`.',
      resolve: (policy) => policy.confirm ?? null,
    }),
    prompt: t.field({
      type: DialogActionEnum,
      nullable: true,
      description: 'The answer for prompts; null means `default`.',
      resolve: (policy) => policy.prompt ?? null,
    }),
    beforeunload: t.field({
      type: DialogActionEnum,
      nullable: true,
      description: 'The answer for beforeunload dialogs; null means `default`.',
      resolve: (policy) => policy.beforeunload ?? null,
    }),
    promptText: t.string({
      nullable: true,
      description: "What an accepted prompt answers; null means the prompt's own default value.",
      resolve: (policy) => policy.promptText ?? null,
    }),
    oneShot: t.boolean({
      description: 'True when it answers only the next dialog, after which everything is dismissed.',
      resolve: (policy) => policy.oneShot ?? false,
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  dialogs: t.field({
    type: DialogLogRef,
    description: 'Dialogs the renderers opened and how each was answered; readable after the app ends.',
    requiresCapability: 'DIALOGS',
    args: {
      last: t.arg.int({ required: false, description: 'Only the newest N entries.' }),
      afterSeq: t.arg.int({
        required: false,
        description: 'Only entries with a larger `seq`: resume reading without gaps or repeats.',
      }),
    },
    resolve: (session, args) => session.pageState.dialogs.log.snapshot(args),
  }),
  dialogPolicy: t.field({
    type: DialogPolicyRef,
    description: 'The policy answering the next JS dialogs (dismiss everything until setDialogPolicy).',
    requiresCapability: 'DIALOGS',
    resolve: (session) => session.pageState.dialogs.policy.current,
  }),
}));

builder.mutationField('setDialogPolicy', (t) =>
  t.field({
    type: DialogPolicyRef,
    description:
      'How dialogs are answered from now on: a default, per-type overrides, prompt text, one-shot.',
    requiresCapability: 'DIALOGS',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      default: t.arg({
        type: DialogActionEnum,
        required: true,
        description: 'The answer for every type without its own override.',
      }),
      alert: t.arg({ type: DialogActionEnum, required: false, description: 'Override for alerts.' }),
      confirm: t.arg({ type: DialogActionEnum, required: false, description: 'Override for confirms.' }),
      prompt: t.arg({ type: DialogActionEnum, required: false, description: 'Override for prompts.' }),
      beforeunload: t.arg({
        type: DialogActionEnum,
        required: false,
        description: 'Override for beforeunload dialogs.',
      }),
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
      sessions.get(session).pageState.dialogs.setPolicy({ ...spec, oneShot: spec.oneShot ?? false }),
  }),
);

const DialogEventRef = builder.objectRef<CursoredDelivery<DialogEntry>>('DialogEvent').implement({
  description: 'One delivery of the `dialogs` subscription.',
  fields: (t) => ({
    entry: t.field({
      type: DialogEntryRef,
      description: 'The answered dialog.',
      resolve: (delivery) => delivery.event,
    }),
    droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
    cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
  }),
});

builder.subscriptionField('dialogs', (t) =>
  t.field({
    type: DialogEventRef,
    description:
      'Dialogs as they are answered; the same entries `Session.dialogs` shows. Without `session`: every session whose transport has DIALOGS.',
    requiresCapability: { capability: 'DIALOGS', session: 'session', perEventSource: true },
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's dialogs; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      replay: t.arg.boolean({ required: false, description: 'Start with the buffered entries.' }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.dialog, args),
    resolve: (delivery) => delivery,
  }),
);
