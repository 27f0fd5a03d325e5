import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../errors/registry.js';
import type { Answer } from './answer.js';

/**
 * What every answer must be: data, or errors whose every entry carries a registered code; never INTERNAL (no
 * faults are injected), never a stack frame or a path of the gateway's source tree.
 */

export interface Violation {
  readonly kind: string;
  readonly detail: string;
}

/** The gateway's source tree (node_modules included): a path under it in an answer is a leak. */
export const SOURCE_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/**
 * Except the fixtures: the demo session's app (its `main`, read in data) and the Electron stand-in (the
 * `executablePath` a fuzzed launch sends) are what a session is, not the gateway's code.
 */
const FIXTURES = `${SOURCE_ROOT}/fixtures/`;
const STACK_FRAME = '    at ';

export function judge(answer: Answer): Violation[] {
  const violations: Violation[] = [];
  if (answer.failure) violations.push({ kind: 'no answer', detail: answer.failure });
  for (const text of answer.unparsed) violations.push({ kind: 'not a GraphQL answer', detail: text });
  for (const result of answer.results) violations.push(...judgeResult(result));
  for (const text of answer.texts) {
    const index = text.indexOf(STACK_FRAME);
    if (index !== -1) violations.push({ kind: 'stack frame', detail: around(text, index) });
    const cleaned = text.split(FIXTURES).join('');
    const at = cleaned.indexOf(SOURCE_ROOT);
    if (at !== -1) violations.push({ kind: 'gateway path', detail: around(cleaned, at) });
  }
  return violations;
}

function judgeResult(result: unknown): Violation[] {
  if (typeof result !== 'object' || result === null || !('data' in result || 'errors' in result))
    return [
      { kind: 'not a GraphQL answer', detail: JSON.stringify(result)?.slice(0, 200) ?? String(result) },
    ];
  const { errors } = result as { errors?: unknown };
  if (errors === undefined) return [];
  if (!Array.isArray(errors) || errors.length === 0)
    return [{ kind: 'not a GraphQL answer', detail: `errors is ${JSON.stringify(errors)?.slice(0, 100)}` }];
  return errors.flatMap((error: { message?: unknown; path?: unknown; extensions?: { code?: unknown } }) => {
    const code = error?.extensions?.code;
    // The field it failed at names the resolver to look at.
    const at = Array.isArray(error?.path) ? ` (at ${error.path.join('.')})` : '';
    const message = `${String(error?.message).slice(0, 160)}${at}`;
    if (typeof code !== 'string') return [{ kind: 'error without a code', detail: message }];
    if (!(code in ERROR_CODES)) return [{ kind: `unregistered code ${code}`, detail: message }];
    if (code === 'INTERNAL') return [{ kind: 'INTERNAL', detail: message }];
    return [];
  });
}

function around(text: string, index: number): string {
  return text.slice(Math.max(0, index - 80), index + 120);
}

/** Separates what went wrong from its particulars (a close reason, an echoed document) in a detail. */
export const PARTICULARS = ' — ';

/**
 * The class a violation belongs to, for the list of distinct failures: its kind and its detail with the
 * particulars (numbers, quoted values) taken out.
 */
export function violationClass(violation: Violation): string {
  const detail = violation.detail
    .split(PARTICULARS)[0]!
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 120);
  return `${violation.kind}: ${detail}`;
}
