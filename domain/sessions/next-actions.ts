import type { Capability, CapabilityMatrix } from '../../transports/contract/capabilities.js';
import type { TransportId } from '../../transports/contract/transport-contract.js';
import { graphqlString } from './graphql-string.js';

/** What a session's next actions are built from: its real id, ownership, transport and launch. */
export interface SessionFacts {
  readonly id: string;
  readonly transportId: TransportId;
  readonly capabilities: CapabilityMatrix;
  /** False for an app Stagegraph attached or injected into: it detaches, never stops. */
  readonly ownsProcess: boolean;
  readonly launch: { readonly main: string | null; readonly executablePath: string | null };
}

/** The one fact most next actions need: which session they are about. */
export type SessionNamed = Pick<SessionFacts, 'id'>;

/**
 * Every operation an error offers as a next step about a session, built from that session's facts so
 * each one is valid for it: an owned session is offered stop, another detach; a relaunch only where the
 * launch named a main to relaunch. test/next-actions.test.ts validates each against the schema.
 */
export const sessionActions = {
  listSessions: () => 'query { sessions { id status app { name } } }',
  /** What a caller who named the wrong session most likely wanted: a live one, its status and windows. */
  overview: (session: SessionNamed) =>
    `query { session(id: ${graphqlString(session.id)}) { id status windows { id title } } }`,
  windows: (session: SessionNamed) =>
    `query { session(id: ${graphqlString(session.id)}) { windows { id title url } } }`,
  postMortem: (session: SessionNamed) =>
    `query { session(id: ${graphqlString(session.id)}) { status exit { code signal } console(last: 20) { entries { type text } } } }`,
  /** How to end this session: stop what Stagegraph started, detach from what it did not. */
  end: (session: Pick<SessionFacts, 'id' | 'ownsProcess'>) =>
    session.ownsProcess
      ? `mutation { stop(id: ${graphqlString(session.id)}) { id status } }`
      : `mutation { detach(id: ${graphqlString(session.id)}) { id status } }`,
  /** The same app launched again with the native hooks, or nothing when the session named no main. */
  relaunchInstrumented: (session: SessionFacts): string | undefined => {
    const { main, executablePath } = session.launch;
    if (!main) return undefined;
    const executable = executablePath ? `, executablePath: ${graphqlString(executablePath)}` : '';
    return `mutation { launch(input: { main: ${graphqlString(main)}${executable}, instrumentNative: true }) { id status } }`;
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
