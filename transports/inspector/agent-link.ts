import { StagegraphError } from '../../errors/stagegraph-error.js';
import { withDeadline } from '../protocol/deadline.js';
import { injectCallSource } from './agent-sources.js';
import type { AgentLink } from './inject-agent.js';
import type { MainProcess } from './main-process.js';

/** How long an inject that timed out waiting for its agent asks the agent how its socket stands. */
const AGENT_LINK_READ_MS = 2_000;

/**
 * An agent that never connected back says how its socket stands (still connecting, or failed with the
 * socket's error), asked once, briefly, so the INJECT_TIMEOUT says which it was. Any other error passes.
 */
export async function withAgentLink(error: unknown, main: MainProcess): Promise<never> {
  if (!(error instanceof StagegraphError) || error.code !== 'INJECT_TIMEOUT') throw error;
  const link = await withDeadline(
    main.run<AgentLink | null>(injectCallSource('agent ? agent.link : null')),
    AGENT_LINK_READ_MS,
    () => new Error('no answer'),
  ).catch((failure: unknown) => ({ state: 'unknown', error: String(failure) }));
  throw new StagegraphError(error.code, error.message, {
    hint: error.hint,
    nextActions: error.nextActions,
    details: { ...error.details, agentLink: link },
    cause: error.cause,
  });
}
