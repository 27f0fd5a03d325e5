import { ARTIFACTS_HTTP_PREFIX } from '../../schema/artifacts.js';
import { definePlugin } from '../../schema/plugins/plugin-api.js';
import { type SavedTrace, TraceRecorder } from './trace-recorder.js';

/**
 * Playwright tracing as a plugin (`--plugin ./plugins/trace/index.ts`): startTrace and stopTrace record
 * what the gateway does in a session's pages into a zip that `playwright show-trace` opens. Both are
 * governed and audited like every mutation, and need INTERACTION, the seam whose actions a trace records.
 */
export default definePlugin({
  name: 'trace',
  register({ builder, refs, errors, sessions }) {
    const recorder = new TraceRecorder(errors);
    const TraceFile = builder.objectRef<SavedTrace>('TraceFile').implement({
      description: "A Playwright trace in the session's artifact folder (the trace plugin).",
      fields: (t) => ({
        path: t.exposeString('path', {
          description: "Relative to the session's folder: traces/trace-<n>.zip.",
        }),
        size: t.exposeInt('size', { description: 'Bytes.' }),
        url: t.string({
          description:
            'Where this server serves it read-only (GET, with the same token as GraphQL); open it with `npx playwright show-trace <file>`.',
          resolve: (trace) =>
            `${ARTIFACTS_HTTP_PREFIX}/${[trace.sessionId, ...trace.path.split('/')].map(encodeURIComponent).join('/')}`,
        }),
      }),
    });

    builder.mutationFields((t) => ({
      startTrace: t.field({
        type: refs.Session,
        description:
          "Starts a Playwright trace of the session's pages: every action, with DOM snapshots and a screenshot strip unless turned off. BAD_INPUT when one is already running; CAPABILITY_UNSUPPORTED on a transport without Playwright tracing.",
        args: {
          session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
          screenshots: t.arg.boolean({
            required: false,
            description: 'A screenshot strip for the timeline. Default true.',
          }),
          snapshots: t.arg.boolean({
            required: false,
            description: 'DOM snapshots before and after each action. Default true.',
          }),
        },
        governance: { session: 'session' },
        requiresCapability: 'INTERACTION',
        resolve: (_root, args, context) =>
          recorder.start(sessions.get(context, args.session), {
            screenshots: args.screenshots ?? true,
            snapshots: args.snapshots ?? true,
            title: 'Stagegraph',
          }),
      }),
      stopTrace: t.field({
        type: TraceFile,
        description:
          "Ends the session's trace and saves it as traces/trace-<n>.zip in its artifact folder. BAD_INPUT when no trace is running.",
        args: {
          session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
        },
        governance: { session: 'session' },
        requiresCapability: 'INTERACTION',
        resolve: (_root, args, context) => recorder.stop(sessions.get(context, args.session)),
      }),
    }));
  },
});
