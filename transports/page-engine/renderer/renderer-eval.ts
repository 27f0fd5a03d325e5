import type { Page } from 'playwright-core';
import type { EvalOutcome } from '../../contract/native.js';
import { userCodeSource } from '../../main-agent/agent-source.js';
import { settleEval } from '../../main-agent/eval-settle.js';

/**
 * Runs opted-in user code (a function expression) in a page, its result checked for plain JSON there.
 * The call and its JSON argument are one expression: a page evaluates strings, and its CSP may forbid eval.
 */
export function evalInPage(page: Page, code: string, arg: unknown): Promise<EvalOutcome> {
  return settleEval(page.evaluate(`(${userCodeSource(code, 'renderer')})(${JSON.stringify(arg)})`));
}
