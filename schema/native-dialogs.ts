import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import type { NativeDialogEntry } from '../resolvers/native/native-dialog-log.js';
import { nativeStream } from '../resolvers/native/native-streams.js';
import type { DialogAnswer, DialogRule, NativeDialogType } from '../transports/native-contract.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { SessionRef } from './session.js';

const TYPES = { OPEN: 'open', SAVE: 'save', MESSAGE_BOX: 'messageBox' } as const satisfies Record<
  string,
  NativeDialogType
>;
const GRAPHQL_TYPE = { open: 'OPEN', save: 'SAVE', messageBox: 'MESSAGE_BOX' } as const;

const NativeDialogTypeEnum = builder.enumType('NativeDialogType', {
  values: Object.keys(TYPES) as (keyof typeof TYPES)[],
  description: 'dialog.showOpenDialog, showSaveDialog, showMessageBox (each with its Sync form).',
});

const NativeDialogRuleInput = builder.inputType('NativeDialogRuleInput', {
  description: 'How to answer one kind of native dialog. Give filePaths, response or cancel.',
  fields: (t) => ({
    type: t.field({ type: NativeDialogTypeEnum, required: true }),
    filePaths: t.stringList({
      required: false,
      description: 'OPEN: the files chosen; SAVE: the path (first).',
    }),
    response: t.int({ required: false, description: 'MESSAGE_BOX: the index of the button pressed.' }),
    checkboxChecked: t.boolean({ required: false }),
    cancel: t.boolean({ required: false }),
    once: t.boolean({ required: false, description: 'Answer the next call only (default: always).' }),
  }),
});

const NativeDialogRuleRef = builder.objectRef<DialogRule>('NativeDialogRule').implement({
  fields: (t) => ({
    type: t.field({ type: NativeDialogTypeEnum, resolve: (rule) => GRAPHQL_TYPE[rule.type] }),
    filePaths: t.stringList({ nullable: true, resolve: (rule) => rule.filePaths ?? null }),
    response: t.int({ nullable: true, resolve: (rule) => rule.response ?? null }),
    cancel: t.boolean({ resolve: (rule) => rule.cancel === true }),
    once: t.exposeBoolean('once'),
  }),
});

const NativeDialogAnswerRef = builder.objectRef<DialogAnswer>('NativeDialogAnswer').implement({
  fields: (t) => ({
    canceled: t.exposeBoolean('canceled'),
    filePaths: t.exposeStringList('filePaths'),
    response: t.exposeInt('response', { nullable: true }),
    checkboxChecked: t.exposeBoolean('checkboxChecked'),
  }),
});

const NativeDialogCallRef = builder.objectRef<NativeDialogEntry>('NativeDialogCall').implement({
  description: 'One call of a native dialog by the app, and how the policy answered it.',
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    sessionId: t.exposeID('sessionId'),
    type: t.field({ type: NativeDialogTypeEnum, resolve: (call) => GRAPHQL_TYPE[call.type] }),
    sync: t.exposeBoolean('sync'),
    title: t.exposeString('title'),
    message: t.exposeString('message'),
    options: t.exposeString('options', {
      description: 'The options passed, as JSON (cut at 2,000 characters).',
    }),
    answer: t.field({ type: NativeDialogAnswerRef, resolve: (call) => call.answer }),
    answeredBy: t.exposeString('answeredBy', {
      description: 'policy, or cancel when no rule matched (never shown, never waiting).',
    }),
    time: t.field({ type: 'DateTime', resolve: (call) => call.time }),
  }),
});

builder.objectField(SessionRef, 'nativeDialogs', (t) =>
  t.field({
    type: [NativeDialogCallRef],
    description: 'Native dialog calls so far (the newest 200), oldest first.',
    ...requiresCapability('NATIVE_UI'),
    resolve: (session) => session.native.dialogs.read(),
  }),
);

builder.mutationField('setNativeDialogPolicy', (t) =>
  t.field({
    type: [NativeDialogRuleRef],
    description:
      "Replaces the session's answers to native dialogs; the first rule of a dialog's type answers it, and what no rule answers is cancelled.",
    ...requiresCapability('NATIVE_UI'),
    args: {
      session: t.arg.id({ required: false }),
      rules: t.arg({ type: [NativeDialogRuleInput], required: true }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.setDialogPolicy(
        args.rules.map((rule) => ({
          type: TYPES[rule.type],
          once: rule.once === true,
          ...(rule.filePaths ? { filePaths: rule.filePaths } : {}),
          ...(rule.response != null ? { response: rule.response } : {}),
          ...(rule.checkboxChecked != null ? { checkboxChecked: rule.checkboxChecked } : {}),
          ...(rule.cancel ? { cancel: true } : {}),
        })),
      ),
  }),
);

const NativeDialogEventRef = builder.objectRef<Delivery<NativeDialogEntry>>('NativeDialogEvent').implement({
  fields: (t) => ({
    call: t.field({ type: NativeDialogCallRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore'),
  }),
});

builder.subscriptionField('nativeDialogs', (t) =>
  t.field({
    type: NativeDialogEventRef,
    description: 'Native dialog calls as the app makes them; all sessions unless `session` is given.',
    args: { session: t.arg.id({ required: false }) },
    subscribe: (_root, args, { hub, sessions }) => nativeStream(hub, sessions, 'nativeDialog', args.session),
    resolve: (delivery) => delivery,
  }),
);
