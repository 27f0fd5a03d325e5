import { StagegraphError } from '../../errors/stagegraph-error.js';
import { checkClientPattern } from '../../transports/contract/client-pattern.js';
import type { ExpectationResult, ExpectKind, Matcher } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { clamp } from '../sessions/timeouts.js';
import { type WindowTargetRequest, windowTarget } from './window-target.js';

/** Long enough for an app's ordinary reaction to an action; short enough that a wrong guess fails fast. */
export const EXPECT_TIMEOUT_DEFAULT_MS = 5_000;
/** Anything slower is a bug to report, not a condition to wait on. */
export const EXPECT_TIMEOUT_MAX_MS = 30_000;

const PAGE_WIDE: readonly ExpectKind[] = ['URL', 'TITLE'];

export interface ExpectRequest extends WindowTargetRequest {
  readonly kind: ExpectKind;
  readonly equals?: string | null;
  readonly contains?: string | null;
  readonly regex?: string | null;
  readonly min?: number | null;
  readonly max?: number | null;
  readonly not?: boolean | null;
  readonly timeoutMs?: number | null;
}

export interface ExpectOutcome extends ExpectationResult {
  readonly kind: ExpectKind;
  readonly windowId: string;
}

/** Waits, event-driven and bounded, until the condition holds in the window; else EXPECTATION_FAILED. */
export async function expectCondition(session: Session, request: ExpectRequest): Promise<ExpectOutcome> {
  const needsTarget = !PAGE_WIDE.includes(request.kind);
  if (needsTarget !== Boolean(request.target)) {
    throw new StagegraphError(
      'BAD_INPUT',
      needsTarget
        ? `An expectation of ${request.kind} needs a target.`
        : `An expectation of ${request.kind} is about the whole window; leave out the target.`,
    );
  }
  if (request.kind === 'COUNT' && request.equals != null && !/^\d+$/.test(request.equals)) {
    throw new StagegraphError('BAD_INPUT', `COUNT compares numbers; "${request.equals}" is not one.`);
  }
  if (request.regex != null) checkClientPattern(request.regex, 'regex');
  const { window, driver, query } = await windowTarget(session, request);
  const timeoutMs = clamp(request.timeoutMs, EXPECT_TIMEOUT_DEFAULT_MS, 0, EXPECT_TIMEOUT_MAX_MS);
  const matcher: Matcher = {
    ...(request.equals == null ? {} : { equals: request.equals }),
    ...(request.contains == null ? {} : { contains: request.contains }),
    ...(request.regex == null ? {} : { regex: request.regex }),
    ...(request.min == null ? {} : { min: request.min }),
    ...(request.max == null ? {} : { max: request.max }),
    ...(request.not ? { not: true } : {}),
  };
  const result = await driver.expect(request.kind, matcher, query, timeoutMs);
  return { ...result, kind: request.kind, windowId: window.id };
}
