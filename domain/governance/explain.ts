import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TargetRequest } from '../interaction/target-input.js';
import { plainJson } from './chokepoint.js';
import type { Governance } from './governance.js';
import type { PolicyExplanation } from './policy/policy.js';
import { previewOperation } from './preview/target-preview.js';
import { type GovernedOperation, previewRequestOf } from './request/governed-operation.js';
import type { JsonObject, OperationKind, SessionInfo, TargetInfo } from './request/governed-request.js';

export interface ExplainRequest {
  /** What the operation's field declares, or how an operation this server does not serve would be read. */
  readonly operation: GovernedOperation;
  readonly kind: OperationKind;
  /** The operation's other arguments as JSON text (`{"position": {"x": 1, "y": 2}}`). */
  readonly argsJson?: string | null;
  /** Put under the argument the operation declares for its session. */
  readonly session?: string | null;
  /** Put under the argument the operation declares for its window. */
  readonly window?: string | null;
  /** Put under the argument naming the element it acts on, else under `target`. */
  readonly target?: TargetRequest | null;
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
  const { operation } = request;
  const args = parseArgs(request.argsJson);
  const onElement = operation.actsOn?.kind === 'element' ? operation.actsOn.argument : null;
  const structured = plainJson({
    ...(request.session == null ? {} : { [operation.session ?? 'session']: request.session }),
    ...(request.window == null ? {} : { [operation.window ?? 'window']: request.window }),
    ...(request.target == null ? {} : { [onElement ?? 'target']: request.target }),
  });
  const merged: JsonObject = { ...args, ...structured };
  const preview = await previewOperation(governance.sessions, previewRequestOf(operation, merged));
  const explanation = governance.policy.explain({
    operation: operation.name,
    kind: request.kind,
    args: merged,
    session: preview.session,
    target: preview.target,
  });
  return { ...explanation, session: preview.session, target: preview.target };
}

/**
 * How an operation the server does not serve (eval without --allow-eval, a name from another tool), or a
 * read, is weighed: as if it named its session, window and target as the actions do, acting on the
 * element in `target` when one is given.
 */
export function unservedOperation(name: string, hasTarget: boolean): GovernedOperation {
  return {
    name,
    answersApproval: false,
    session: 'session',
    window: 'window',
    actsOn: hasTarget ? { kind: 'element', argument: 'target' } : null,
    risk: { wait: 'timeoutMs' },
  };
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
