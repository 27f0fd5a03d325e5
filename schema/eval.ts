import {
  EVAL_TIMEOUT_DEFAULT_MS,
  EVAL_TIMEOUT_MAX_MS,
  type EvalResult,
} from '../domain/native/eval-result.js';
import { builder } from './builder.js';
import { sessionArg } from './session-arg.js';

const EvalResultRef = builder.objectRef<EvalResult>('EvalResult').implement({
  description: 'What the code returned, as JSON text.',
  fields: (t) => ({
    json: t.exposeString('json', {
      description: 'The return value as JSON text (undefined reads as null); parse it yourself.',
    }),
  }),
});

const TIMEOUT_DESCRIPTION = `How long to wait for the code to settle: default ${EVAL_TIMEOUT_DEFAULT_MS}, clamped to ${EVAL_TIMEOUT_MAX_MS}. EVAL_TIMEOUT past it (the code may still run); EVAL_RESULT_TOO_LARGE for a result over 1,000,000 characters of JSON.`;

builder.mutationFields((t) => ({
  evalMain: t.field({
    type: EvalResultRef,
    description:
      'Runs `code`, a function expression such as `({ app }, arg) => app.getName()`, in the main process. Present only with --allow-eval or --allow-eval=main.',
    requiresCapability: 'MAIN_EVAL',
    evalScope: 'main',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      code: t.arg.string({
        required: true,
        description:
          'A function expression, possibly async, called with the electron module and the parsed `arg`. EVAL_FAILED when it does not compile or throws; EVAL_NOT_SERIALIZABLE when its result is not plain JSON.',
      }),
      arg: t.arg.string({ required: false, description: 'JSON passed as the second argument.' }),
      timeoutMs: t.arg.int({ required: false, description: TIMEOUT_DESCRIPTION }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.evalMain(args.code, parseArg(args.arg), args.timeoutMs),
  }),
  evalRenderer: t.field({
    type: EvalResultRef,
    description:
      'Runs `code`, a function expression such as `(arg) => document.title`, in a window (the active one by default). Present only with --allow-eval or --allow-eval=renderer.',
    requiresCapability: 'RENDERER_EVAL',
    evalScope: 'renderer',
    governance: { session: 'session', window: 'window' },
    args: {
      ...sessionArg,
      code: t.arg.string({
        required: true,
        description:
          "A function expression, possibly async, called in the window's page with the parsed `arg`. EVAL_FAILED when it does not compile or throws; EVAL_NOT_SERIALIZABLE when its result is not plain JSON.",
      }),
      arg: t.arg.string({ required: false, description: 'JSON passed as the argument.' }),
      window: t.arg.id({
        required: false,
        description: 'A window id; default: the active window. WINDOW_NOT_FOUND when it is not open.',
      }),
      timeoutMs: t.arg.int({ required: false, description: TIMEOUT_DESCRIPTION }),
    },
    resolve: async (_root, args, { sessions }) => {
      const session = sessions.get(args.session);
      const window = await session.findWindow(args.window);
      return session.native.evalRenderer(window.id, args.code, parseArg(args.arg), args.timeoutMs);
    },
  }),
}));

function parseArg(json: string | null | undefined): unknown {
  if (json == null) return null;
  return JSON.parse(json);
}
