import type { PolicyVerdict } from './policy/policy.js';
import { DEFAULT_RAW_POINTER_OPERATIONS, isCoordinateClick } from './policy/risk.js';
import type { GovernedRequest } from './request/governed-request.js';

/**
 * The hint a coordinate click refused by the built-in CRITICAL default carries: the policy rule that lets
 * the session's app have one. A desktop app whose control exposes no accessible action (a canvas, a custom
 * widget) can need it, and "have the policy owner add a rule" alone does not say which rule. Undefined for
 * any other refusal, which keeps the registry's hint.
 */
export function coordinateRuleHint(request: GovernedRequest, verdict: PolicyVerdict): string | undefined {
  const { operation, args, session } = request;
  const coordinates =
    isCoordinateClick(operation, args) || DEFAULT_RAW_POINTER_OPERATIONS.includes(operation);
  if (verdict.rule.id !== 'default:CRITICAL' || !coordinates) return undefined;
  const onlyThisApp = session?.executablePath ? `, session: { executable: "${session.executablePath}" }` : '';
  const onlyPositioned = isCoordinateClick(operation, args) ? ', args: { position: true }' : '';
  return (
    `A click at coordinates is CRITICAL, which the default policy denies. Prefer a target (a ref, or role and name). ` +
    `For an app that needs coordinates, add this rule to the policy file (--policy): ` +
    `{ id: coordinate-clicks, operation: [${operation}]${onlyThisApp}${onlyPositioned}, decision: ALLOW } ` +
    '(ASK instead of ALLOW has a person approve each one); docs/governance.md lists the matchers.'
  );
}
