import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TargetRequest } from '../interaction/target-input.js';
import { plainJson } from './chokepoint.js';
import type { Governance } from './governance.js';
import type { ActedOnKind, JsonObject, OperationKind, SessionInfo, TargetInfo } from './governed-request.js';
import type { PolicyExplanation } from './policy.js';
import { previewOperation } from './target-preview.js';

export interface ExplainRequest {
  readonly operation: string;
  readonly kind: OperationKind;
  /** The operation's other arguments as JSON text (`{"position": {"x": 1, "y": 2}}`). */
  readonly argsJson?: string | null;
  readonly session?: string | null;
  readonly window?: string | null;
  readonly target?: TargetRequest | null;
  /** As the chokepoint would see it for this operation; null for operations on no session (launch). */
  readonly sessionArgument: string | null;
  /** What the operation acts on, as the chokepoint would preview it. */
  readonly actsOn: ActedOnKind | null;
}

export interface Explanation extends PolicyExplanation {
  /** What the decision was made about: the session and the target as resolved, not as named. */
  readonly session: SessionInfo | null;
  readonly target: TargetInfo | null;
}

/**
 * What the chokepoint would decide for this operation now, built exactly as it builds a request (the
 * target resolved through the window, without acting), with the policy's reasons and the rules it passed
 * over. Counts no rule hit, asks no approver, writes no audit record.
 */
export async function explainOperation(
  governance: Governance,
  request: ExplainRequest,
): Promise<Explanation> {
  const args = parseArgs(request.argsJson);
  const structured = plainJson({
    ...(request.session == null ? {} : { [request.sessionArgument ?? 'session']: request.session }),
    ...(request.window == null ? {} : { window: request.window }),
    ...(request.target == null ? {} : { target: request.target }),
  });
  const merged: JsonObject = { ...args, ...structured };
  const timeoutMs = merged.timeoutMs;
  const preview = await previewOperation(governance.sessions, {
    actsOnSession: request.sessionArgument !== null,
    sessionId: request.session ?? null,
    window: request.window ?? null,
    target: request.target ?? null,
    timeoutMs: typeof timeoutMs === 'number' ? timeoutMs : null,
    actsOn: request.actsOn,
    args: merged,
  });
  const explanation = governance.policy.explain({
    operation: request.operation,
    kind: request.kind,
    args: merged,
    session: preview.session,
    target: preview.target,
  });
  return { ...explanation, session: preview.session, target: preview.target };
}

function parseArgs(text: string | null | undefined): JsonObject {
  if (text == null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StagegraphError('BAD_INPUT', `args is not JSON: ${(error as Error).message}`, {
      hint: 'Pass the arguments as a JSON object, e.g. "{\\"position\\": {\\"x\\": 5, \\"y\\": 5}}".',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new StagegraphError('BAD_INPUT', 'args must be a JSON object of argument names to values.');
  return value as JsonObject;
}
