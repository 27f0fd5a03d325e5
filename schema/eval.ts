import { GraphQLSchema, isObjectType } from 'graphql';
import type { EvalResult } from '../domain/native/session-native.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';

/** Which eval fields a server exposes: `--allow-eval[=main|renderer]`. */
export type EvalScope = 'none' | 'main' | 'renderer' | 'both';

const EvalResultRef = builder.objectRef<EvalResult>('EvalResult').implement({
  description: 'What the code returned, as JSON text.',
  extensions: { evalScope: 'any' },
  fields: (t) => ({
    json: t.exposeString('json', {
      description: 'The return value as JSON text (undefined reads as null); parse it yourself.',
    }),
  }),
});

builder.mutationFields((t) => ({
  evalMain: t.field({
    type: EvalResultRef,
    description:
      'Runs `code`, a function expression such as `({ app }, arg) => app.getName()`, in the main process. Present only with --allow-eval or --allow-eval=main.',
    ...requiresCapability('MAIN_EVAL'),
    extensions: { requiresCapability: 'MAIN_EVAL', evalScope: 'main' },
    args: {
      session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
      code: t.arg.string({
        required: true,
        description:
          'A function expression, possibly async, called with the electron module and the parsed `arg`. EVAL_FAILED when it does not compile or throws; EVAL_NOT_SERIALIZABLE when its result is not plain JSON.',
      }),
      arg: t.arg.string({ required: false, description: 'JSON passed as the second argument.' }),
    },
    resolve: (_root, args, { sessions }) =>
      sessions.get(args.session).native.evalMain(args.code, parseArg(args.arg)),
  }),
  evalRenderer: t.field({
    type: EvalResultRef,
    description:
      'Runs `code`, a function expression such as `(arg) => document.title`, in a window (the active one by default). Present only with --allow-eval or --allow-eval=renderer.',
    ...requiresCapability('RENDERER_EVAL'),
    extensions: { requiresCapability: 'RENDERER_EVAL', evalScope: 'renderer' },
    args: {
      session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
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
    },
    resolve: async (_root, args, { sessions }) => {
      const session = sessions.get(args.session);
      const window = await session.findWindow(args.window);
      return session.native.evalRenderer(window.id, args.code, parseArg(args.arg));
    },
  }),
}));

function parseArg(json: string | null | undefined): unknown {
  if (json == null) return null;
  return JSON.parse(json);
}

/**
 * Removes the fields (and their types) the scope does not allow — eval, and IPC, which reaches as far —
 * so they are absent from the schema rather than refused at run time: an agent cannot call, or even learn
 * of, what the operator did not open. Run on a freshly built schema (each toSchema() builds new types, so
 * editing its field maps is safe).
 */
export function applyEvalScope(schema: GraphQLSchema, scope: EvalScope): GraphQLSchema {
  const allowed = (fieldScope: unknown) =>
    fieldScope === undefined ||
    scope === 'both' ||
    fieldScope === scope ||
    (fieldScope === 'any' && scope !== 'none');
  let removed = false;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const fields = type.getFields();
    for (const [name, field] of Object.entries(fields)) {
      if (allowed(field.extensions?.evalScope)) continue;
      delete fields[name];
      removed = true;
    }
  }
  if (!removed) return schema;
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    types: config.types.filter((type) => allowed(type.extensions?.evalScope)),
  });
}
