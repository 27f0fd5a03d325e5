import type { EvalOutcome } from '../contract/native.js';

/**
 * Runs user code and checks its result is plain JSON before anything leaves the process it ran in.
 * Self-contained (shipped as source into the main process or a page). A throw becomes its message only:
 * stacks name files and lines of the app, which a caller has no use for.
 */
export async function runUserCode(user: unknown, args: unknown[]): Promise<EvalOutcome> {
  /** Deeper results are refused: JSON that deep is a cycle or a mistake, and the walk must end. */
  const MAX_RESULT_DEPTH = 64;
  /**
   * Longer results are refused where they were made, before they cross any connection: an answer of more
   * than about a megabyte is a dump, not a reading, and would cost every hop from the process to the agent.
   */
  const MAX_RESULT_CHARS = 1_000_000;
  if (typeof user !== 'function') {
    return {
      status: 'failed',
      message: 'code must be a function expression, such as ({ app }) => app.getName()',
    };
  }
  let value: unknown;
  try {
    value = await user(...args);
  } catch (error) {
    return {
      status: 'failed',
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
  const seen = new Set<unknown>();
  const problem = (item: unknown, path: string, depth: number): string | null => {
    if (depth > MAX_RESULT_DEPTH) return `${path} is nested deeper than ${MAX_RESULT_DEPTH}`;
    if (item === null || typeof item === 'string' || typeof item === 'boolean') return null;
    if (typeof item === 'number')
      return Number.isFinite(item) ? null : `${path} is ${item}, which JSON cannot hold`;
    if (typeof item !== 'object') return `${path} is a ${typeof item}`;
    if (seen.has(item)) return `${path} refers back to itself`;
    seen.add(item);
    const prototype = Object.getPrototypeOf(item);
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) {
        const found = problem(item[index], `${path}[${index}]`, depth + 1);
        if (found) return found;
      }
    } else if (prototype === Object.prototype || prototype === null) {
      for (const [key, child] of Object.entries(item)) {
        const found = problem(child, `${path}.${key}`, depth + 1);
        if (found) return found;
      }
    } else {
      return `${path} is a ${(item as object).constructor?.name ?? 'non-plain object'}, not plain JSON`;
    }
    seen.delete(item);
    return null;
  };
  // A function that returns nothing answers null; undefined anywhere deeper would vanish silently.
  const found = value === undefined ? null : problem(value, 'result', 0);
  if (found) return { status: 'not-serializable', message: found };
  const json = JSON.stringify(value ?? null);
  if (json.length > MAX_RESULT_CHARS)
    return {
      status: 'too-large',
      message: `the result is ${json.length} characters of JSON, more than ${MAX_RESULT_CHARS}: return a part, a count or a summary`,
    };
  return { status: 'ok', json };
}
