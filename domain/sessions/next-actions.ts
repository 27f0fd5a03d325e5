import type { Capability, CapabilityMatrix } from '../../transports/contract/capabilities.js';
import type { TransportId } from '../../transports/contract/transport.js';

/** What a session's next actions are built from: its real id, ownership, transport and launch. */
export interface SessionFacts {
  readonly id: string;
  readonly transportId: TransportId;
  readonly capabilities: CapabilityMatrix;
  /** False for an app Stagegraph attached or injected into: it detaches, never stops. */
  readonly ownsProcess: boolean;
  readonly launch: { readonly main: string | null; readonly executablePath: string | null };
}

/** A GraphQL string literal; JSON's escapes are GraphQL's. */
const literal = (value: string) => JSON.stringify(value);

/**
 * Every operation an error offers as a next step about a session, built from that session's facts so
 * each one is valid for it: an owned session is offered stop, another detach; a relaunch only where the
 * launch named a main to relaunch. `next-actions.test.ts` validates each against the schema.
 */
export const sessionActions = {
  listSessions: () => 'query { sessions { id status app { name } } }',
  /** What a caller who named the wrong session most likely wanted: a live one, its status and windows. */
  overview: (session: SessionFacts) =>
    `query { session(id: ${literal(session.id)}) { id status windows { id title } } }`,
  windows: (session: SessionFacts) =>
    `query { session(id: ${literal(session.id)}) { windows { id title url } } }`,
  postMortem: (session: SessionFacts) =>
    `query { session(id: ${literal(session.id)}) { status exit { code signal } console(last: 20) { entries { type text } } } }`,
  /** How to end this session: stop what Stagegraph started, detach from what it did not. */
  end: (session: SessionFacts) =>
    session.ownsProcess
      ? `mutation { stop(id: ${literal(session.id)}) { id status } }`
      : `mutation { detach(id: ${literal(session.id)}) { id status } }`,
  /** The same app launched again with the native hooks, or nothing when the session named no main. */
  relaunchInstrumented: (session: SessionFacts): string | undefined => {
    const { main, executablePath } = session.launch;
    if (!main) return undefined;
    const executable = executablePath ? `, executablePath: ${literal(executablePath)}` : '';
    return `mutation { launch(input: { main: ${literal(main)}${executable}, instrumentNative: true }) { id status } }`;
  },
  transportsWith: (capability: Capability) => `query { transports { id capabilities { ${capability} } } }`,
} as const;

/** NOT_INSTRUMENTED: end the session the way it may be ended, then relaunch it instrumented if it can be. */
export function notInstrumentedActions(session: SessionFacts): string[] {
  const relaunch = sessionActions.relaunchInstrumented(session);
  return relaunch
    ? [sessionActions.end(session), relaunch]
    : [sessionActions.end(session), sessionActions.transportsWith('LAUNCH')];
}
