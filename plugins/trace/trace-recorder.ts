import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Session } from '../../domain/sessions/session.js';
import type { PluginErrors } from '../../schema/plugins/plugin-api.js';
import type { TracingControl, TracingOptions } from '../../transports/contract/tracing.js';

/** A trace written into a session's artifact folder. */
export interface SavedTrace {
  readonly sessionId: string;
  /** Relative to the session's folder: `traces/trace-<n>.zip`. */
  readonly path: string;
  readonly size: number;
}

/** Which sessions are being traced: one trace at a time per session, as Playwright allows per context. */
export class TraceRecorder {
  readonly #tracing = new WeakSet<Session>();
  readonly #errors: PluginErrors;

  constructor(errors: PluginErrors) {
    this.#errors = errors;
  }

  async start(session: Session, options: TracingOptions): Promise<Session> {
    const tracing = this.#control(session);
    if (this.#tracing.has(session))
      throw this.#errors.error('BAD_INPUT', `Session ${session.id} is already being traced.`, {
        hint: 'Call stopTrace to write the running trace first; a session records one trace at a time.',
      });
    await tracing.start(options);
    this.#tracing.add(session);
    session.runLog.stagegraph('trace started');
    return session;
  }

  /** Ends the trace and keeps its zip as `traces/trace-<n>.zip` in the session's artifact folder. */
  async stop(session: Session): Promise<SavedTrace> {
    const tracing = this.#control(session);
    if (!this.#tracing.has(session))
      throw this.#errors.error('BAD_INPUT', `Session ${session.id} is not being traced.`, {
        hint: 'Call startTrace first, then act, then stopTrace.',
      });
    this.#tracing.delete(session);
    // Playwright writes the zip itself; it is moved into the folder by bytes, where the folder names it.
    const scratch = await mkdtemp(join(tmpdir(), 'stagegraph-trace-'));
    try {
      const written = join(scratch, 'trace.zip');
      await tracing.stop(written);
      const bytes = await readFile(written);
      const saved = await session.artifacts.save('traces', 'trace', 'zip', bytes);
      const path = relative(session.artifacts.path, saved).split(sep).join('/');
      session.runLog.stagegraph(`trace saved as ${path}`);
      return { sessionId: session.id, path, size: bytes.length };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  #control(session: Session): TracingControl {
    session.assertLive();
    const { tracing } = session;
    if (!tracing)
      throw this.#errors.error(
        'CAPABILITY_UNSUPPORTED',
        `Session ${session.id} runs on ${session.transportId}, which cannot record a Playwright trace.`,
        {
          hint: 'Trace a session whose pages Playwright drives: one started with `launch` (playwright-electron).',
          details: { transport: session.transportId },
        },
      );
    return tracing;
  }
}
