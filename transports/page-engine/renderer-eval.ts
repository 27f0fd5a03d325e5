import type { Page } from 'playwright-core';
import type { EvalOutcome } from '../contract/native.js';
import { userCodeSource } from '../main-agent/agent-source.js';

/**
 * Runs opted-in user code (a function expression) in a page, its result checked for plain JSON there.
 * The call and its JSON argument are one expression: a page evaluates strings, and its CSP may forbid eval.
 */
export async function evalInPage(page: Page, code: string, arg: unknown): Promise<EvalOutcome> {
  try {
    return (await page.evaluate(
      `(${userCodeSource(code, 'renderer')})(${JSON.stringify(arg)})`,
    )) as EvalOutcome;
  } catch (error) {
    // Code that does not even compile rejects here; its first line is the message, never a stack.
    const message = error instanceof Error ? error.message : String(error);
    const line = message.split('\n').find((text) => /Error/.test(text)) ?? message.split('\n')[0] ?? '';
    return { status: 'failed', message: line.replace(/^.*?evaluate: /, '').trim() };
  }
}
