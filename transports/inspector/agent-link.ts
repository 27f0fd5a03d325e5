import { StagegraphError } from '../../errors/stagegraph-error.js';
import { withDeadline } from '../protocol/deadline.js';
import { INJECT_AGENT_KEY } from './inject-agent.js';
import type { MainProcess } from './main-process.js';

/** How long an inject that timed out waiting for its agent asks the app how it stands. */
const AGENT_LINK_READ_MS = 2_000;

/** The agent's link read where the inspector lands: it answers even when the app's loop does not turn. */
const READ_LINK = `(() => {
  const agent = globalThis[Symbol.for(${JSON.stringify(INJECT_AGENT_KEY)})];
  return agent ? agent.readLink() : null;
})()`;

/**
 * Whether the app's event loop turns, and whether a next tick queued from it runs before the next turn:
 * a queue Node wrongly believes empty takes ticks and never runs them (see MainProcess's `fromAppLoop`).
 */
const PROBE_LOOP = `() => new Promise((resolve) => {
  let ran = false;
  process.nextTick(() => { ran = true; });
  setImmediate(() => resolve({ turns: true, nextTicksRun: ran }));
})`;

export interface AppLoopReading {
  /** False when a callback queued on the app's loop did not run within the read's time. */
  readonly turns: boolean;
  readonly nextTicksRun: boolean | null;
}

/**
 * An agent that never connected back says how its socket stands (still connecting — and whether connect()
 * ever ran — or failed with the socket's error) and whether the app's event loop and next-tick queue run,
 * asked once, briefly, so the INJECT_TIMEOUT explains itself. Any other error passes.
 */
export async function withAgentLink(error: unknown, main: MainProcess): Promise<never> {
  if (!(error instanceof StagegraphError) || error.code !== 'INJECT_TIMEOUT') throw error;
  const [link, appLoop] = await Promise.all([
    within(main.peek<Record<string, unknown> | null>(READ_LINK)).catch((failure: unknown) => ({
      state: 'unknown',
      error: String(failure),
    })),
    within(main.run<AppLoopReading>(PROBE_LOOP)).catch(
      (): AppLoopReading => ({ turns: false, nextTicksRun: null }),
    ),
  ]);
  throw new StagegraphError(error.code, `${error.message} ${sayWhy(link, appLoop)}`, {
    hint: error.hint,
    nextActions: error.nextActions,
    details: { ...error.details, agentLink: link, appLoop },
    cause: error.cause,
  });
}

function within<T>(read: Promise<T>): Promise<T> {
  return withDeadline(read, AGENT_LINK_READ_MS, () => new Error('no answer'));
}

/** One sentence on what the reads found, for a reader of the message who never opens its details. */
function sayWhy(link: Record<string, unknown> | null, appLoop: AppLoopReading): string {
  const socket = link?.socket as { connectAttempted?: boolean } | undefined;
  const stands = !link
    ? 'The app holds no inject agent.'
    : link.state === 'connecting'
      ? `The agent's socket is still connecting (${socket?.connectAttempted ? 'its connect syscall was made' : 'no connect attempt reported'}).`
      : `The agent's socket is ${String(link.state)}${link.error ? ` (${String(link.error)})` : ''}.`;
  const loop = !appLoop.turns
    ? "The app's event loop did not turn within the read."
    : appLoop.nextTicksRun
      ? "The app's event loop and next-tick queue run."
      : "The app's event loop turns but its next-tick queue does not run.";
  return `${stands} ${loop}`;
}
