import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import type { NativeDialogEntry } from '../domain/native/native-dialog-log.js';
import type {
  DialogAnswer,
  DialogRule,
  NativeDialogCall,
  NativeDialogType,
} from '../transports/contract/native.js';
import { builder } from './builder.js';
import { type OutcomeValue, outcomeEnum } from './outcome-enum.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

const TYPES = { OPEN: 'open', SAVE: 'save', MESSAGE_BOX: 'messageBox' } as const satisfies Record<
  string,
  NativeDialogType
>;
const GRAPHQL_TYPE = { open: 'OPEN', save: 'SAVE', messageBox: 'MESSAGE_BOX' } as const;

const NativeDialogTypeEnum = builder.enumType('NativeDialogType', {
  values: {
    OPEN: { description: 'dialog.showOpenDialog(Sync): choose files or folders to open.' },
    SAVE: { description: 'dialog.showSaveDialog(Sync): choose a path to save to.' },
    MESSAGE_BOX: { description: 'dialog.showMessageBox(Sync): a message with buttons.' },
  } as const satisfies Record<keyof typeof TYPES, { description: string }>,
  description: 'dialog.showOpenDialog, showSaveDialog, showMessageBox (each with its Sync form).',
});

/** Every way the dialog hooks say a call was answered: a new one fails to compile until added. */
const ANSWERED_BY = {
  policy: {
    name: 'POLICY',
    description:
      "A rule of the session's native dialog policy answered it (a `cancel` rule answers as cancelled).",
  },
  cancel: {
    name: 'CANCEL',
    description: 'No rule matched its type, so it was cancelled without being shown or waiting.',
  },
} as const satisfies Record<NativeDialogCall['answeredBy'], OutcomeValue>;

const NativeDialogAnsweredByEnum = outcomeEnum(
  'NativeDialogAnsweredBy',
  'What answered a native dialog call.',
  ANSWERED_BY,
);

const NativeDialogRuleInput = builder.inputType('NativeDialogRuleInput', {
  description: 'How to answer one kind of native dialog. Give filePaths, response or cancel.',
  fields: (t) => ({
    type: t.field({
      type: NativeDialogTypeEnum,
      required: true,
      description: 'Which dialog this rule answers.',
    }),
    filePaths: t.stringList({
      required: false,
      description: 'OPEN: the files chosen; SAVE: the path (first).',
    }),
    response: t.int({ required: false, description: 'MESSAGE_BOX: the index of the button pressed.' }),
    checkboxChecked: t.boolean({
      required: false,
      description: "MESSAGE_BOX: the checkbox state to answer; the app's own `checkboxChecked` when absent.",
    }),
    cancel: t.boolean({ required: false, description: 'Answer as if the user cancelled.' }),
    once: t.boolean({ required: false, description: 'Answer the next call only (default: always).' }),
  }),
});

const NativeDialogRuleRef = builder.objectRef<DialogRule>('NativeDialogRule').implement({
  description: 'One rule of the native dialog policy, as set.',
  fields: (t) => ({
    type: t.field({
      type: NativeDialogTypeEnum,
      description: 'Which dialog it answers.',
      resolve: (rule) => GRAPHQL_TYPE[rule.type],
    }),
    filePaths: t.stringList({
      nullable: true,
      description: 'OPEN: the files chosen; SAVE: the path (first). Null when not given.',
      resolve: (rule) => rule.filePaths ?? null,
    }),
    response: t.int({
      nullable: true,
      description: 'MESSAGE_BOX: the index of the button pressed (0 when null and not cancelled).',
      resolve: (rule) => rule.response ?? null,
    }),
    cancel: t.boolean({
      description: 'True when it answers as cancelled.',
      resolve: (rule) => rule.cancel === true,
    }),
    once: t.exposeBoolean('once', {
      description: 'True when it answers only the next matching call and is then dropped.',
    }),
  }),
});

const NativeDialogAnswerRef = builder.objectRef<DialogAnswer>('NativeDialogAnswer').implement({
  description: "What the app's dialog call returned to it.",
  fields: (t) => ({
    canceled: t.exposeBoolean('canceled', {
      description: 'True when answered as cancelled (by a `cancel` rule, or because no rule matched).',
    }),
    filePaths: t.exposeStringList('filePaths', {
      description: 'OPEN: the files chosen; SAVE: the path chosen (at most one); empty otherwise.',
    }),
    response: t.exposeInt('response', {
      nullable: true,
      description:
        "MESSAGE_BOX: the index of the button pressed (cancelled: the box's cancelId); null for OPEN and SAVE.",
    }),
    checkboxChecked: t.exposeBoolean('checkboxChecked', {
      description:
        "MESSAGE_BOX: the checkbox state returned (the rule's, else the app's own `checkboxChecked`).",
    }),
  }),
});

const NativeDialogCallRef = builder.objectRef<NativeDialogEntry>('NativeDialogCall').implement({
  description: 'One call of a native dialog by the app, and how the policy answered it.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session whose app made the call.' }),
    type: t.field({
      type: NativeDialogTypeEnum,
      description: 'Which dialog the app called.',
      resolve: (call) => GRAPHQL_TYPE[call.type],
    }),
    sync: t.exposeBoolean('sync', { description: 'True for the Sync form (showOpenDialogSync, ...).' }),
    title: t.exposeString('title', { description: "The options' `title`; empty when none." }),
    message: t.exposeString('message', { description: "The options' `message`; empty when none." }),
    options: t.exposeString('options', {
      description: 'The options passed, as JSON (cut at 2,000 characters).',
    }),
    answer: t.field({
      type: NativeDialogAnswerRef,
      description: 'What the call returned to the app.',
      resolve: (call) => call.answer,
    }),
    answeredBy: t.field({
      type: NativeDialogAnsweredByEnum,
      description:
        'POLICY when a rule answered it, or CANCEL when no rule matched (never shown, never waiting).',
      resolve: (call) => call.answeredBy,
    }),
    time: t.field({
      type: 'DateTime',
      description: "When the app's main process made the call.",
      resolve: (call) => call.time,
    }),
  }),
});

builder.objectField(SessionRef, 'nativeDialogs', (t) =>
  t.field({
    type: [NativeDialogCallRef],
    description: 'Native dialog calls so far (the newest 200), oldest first.',
    requiresCapability: 'NATIVE_UI',
    resolve: (session) => session.native.dialogs.read(),
  }),
);

builder.mutationField('setNativeDialogPolicy', (t) =>
  t.field({
    type: [NativeDialogRuleRef],
    description:
      "Replaces the session's answers to native dialogs; the first rule of a dialog's type answers it, and what no rule answers is cancelled. An injected session fails with CAPABILITY_UNSUPPORTED.",
    requiresCapability: 'NATIVE_UI',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      rules: t.arg({
        type: [NativeDialogRuleInput],
        required: true,
        description: 'At most 50 rules (more fail with BAD_INPUT); an empty list cancels every dialog.',
      }),
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

const NativeDialogEventRef = builder
  .objectRef<CursoredDelivery<NativeDialogEntry>>('NativeDialogEvent')
  .implement({
    description: 'One delivery of the `nativeDialogs` subscription.',
    fields: (t) => ({
      call: t.field({
        type: NativeDialogCallRef,
        description: 'The dialog call and its answer.',
        resolve: (delivery) => delivery.event,
      }),
      droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
      cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
    }),
  });

builder.subscriptionField('nativeDialogs', (t) =>
  t.field({
    type: NativeDialogEventRef,
    description: 'Native dialog calls as the app makes them; all sessions unless `session` is given.',
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's calls; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) => topicFeed(context, TOPIC_FEEDS.nativeDialog, args),
    resolve: (delivery) => delivery,
  }),
);
