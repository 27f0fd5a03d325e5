import { errors } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * Playwright reports why an element never became actionable only in its call log text ("element is not
 * enabled", "<div …> intercepts pointer events"). These patterns turn that log into registered codes; the
 * most specific reason seen last wins, because the log lists every retry in order.
 */
const REASONS = [
  { code: 'ELEMENT_OBSCURED', pattern: /(<[^\n]+?>) (?:from <[^\n]+?> subtree )?intercepts pointer events/ },
  { code: 'ELEMENT_DISABLED', pattern: /element is not enabled|element is disabled/ },
  {
    code: 'ELEMENT_NOT_EDITABLE',
    pattern:
      /element is not editable|Element is not an <input>|not a <select> element|Not a checkbox or radio button/,
  },
  {
    code: 'ELEMENT_NOT_VISIBLE',
    pattern: /element is not visible|element is outside of the viewport|element is not attached/,
  },
] as const;

export function actionError(
  error: unknown,
  what: string,
  target: string,
  timeoutMs: number,
): StagegraphError {
  if (error instanceof StagegraphError) return error;
  const message = error instanceof Error ? error.message : String(error);
  let found: { code: (typeof REASONS)[number]['code']; index: number; detail?: string } | undefined;
  for (const reason of REASONS) {
    const matches = [...message.matchAll(new RegExp(reason.pattern, 'g'))];
    const last = matches.at(-1);
    if (last && (found === undefined || (last.index ?? 0) > found.index)) {
      found = { code: reason.code, index: last.index ?? 0, ...(last[1] ? { detail: last[1] } : {}) };
    }
  }
  if (found?.code === 'ELEMENT_OBSCURED') {
    return new StagegraphError('ELEMENT_OBSCURED', `${what} on ${target}: ${found.detail} covers it.`, {
      details: { coveredBy: found.detail },
      cause: error,
    });
  }
  if (found)
    return new StagegraphError(
      found.code,
      `${what} on ${target} failed: ${found.code.toLowerCase().replaceAll('_', ' ')}.`,
      { cause: error },
    );
  if (error instanceof errors.TimeoutError) {
    return new StagegraphError(
      'ACTION_TIMEOUT',
      `${what} on ${target} did not complete within ${timeoutMs} ms.`,
      { cause: error },
    );
  }
  return new StagegraphError('ACTION_TIMEOUT', `${what} on ${target} failed: ${message.split('\n')[0]}`, {
    cause: error,
  });
}
