/**
 * Patterns as policy authors write them. `/source/flags` is a regular expression (searched, not anchored);
 * anything else is a glob matched against the whole value: in text (titles, names, urls, arguments) `*`
 * matches any run of characters and the match ignores case; in paths `*` stops at `/`, `**` crosses it,
 * and case counts, as it does on the file systems Stagegraph runs on.
 *
 * Values come from clients and apps (a `fill` value, a selector, a page's title) and can be a megabyte
 * long, so a glob is matched in one pass over the value, in time proportional to its length times the
 * glob's. As a backtracking regular expression `*a*b*` took 0.45 s on 20,000 characters, and each further
 * star multiplied that by the length. A `/regex/` is the author's own and runs as written on JavaScript's
 * backtracking engine.
 */
export type PatternFlavour = 'text' | 'path';

export interface TextPattern {
  readonly source: string;
  test(value: string): boolean;
}

/** `/source/flags`, as policy authors write a regular expression (rules and `redact:` patterns alike). */
export const REGEX_LITERAL = /^\/(.+)\/([dgimsuy]*)$/s;
const SLASH = 0x2f;

/** One glob element: a character, `?` (any one), or a star (any run); `slash` says whether it may match `/`. */
type GlobStep =
  | { readonly kind: 'char'; readonly code: number }
  | { readonly kind: 'one' | 'run'; readonly slash: boolean };

/** Throws a SyntaxError naming what is wrong; the policy loader turns it into POLICY_INVALID. */
export function compilePattern(source: string, flavour: PatternFlavour): TextPattern {
  const literal = REGEX_LITERAL.exec(source);
  if (literal) {
    // `g` and `y` make `test` stateful (lastIndex), which would make one rule match alternately.
    const regex = new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
    return { source, test: (value) => regex.test(value) };
  }
  const fold = flavour === 'text' ? foldCase : (code: number) => code;
  const steps = globSteps(source, flavour, fold);
  return { source, test: (value) => globMatches(steps, value, fold) };
}

function globSteps(glob: string, flavour: PatternFlavour, fold: (code: number) => number): GlobStep[] {
  const steps: GlobStep[] = [];
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*') {
      const double = glob[i + 1] === '*';
      if (double) i += 1;
      steps.push({ kind: 'run', slash: flavour === 'text' || double });
    } else if (char === '?') {
      steps.push({ kind: 'one', slash: flavour === 'text' });
    } else {
      steps.push({ kind: 'char', code: fold(glob.charCodeAt(i)) });
    }
  }
  return steps;
}

/**
 * The glob as a set of positions advanced together over the value, one character at a time (a
 * Thompson simulation): no position is tried twice for the same character, so nothing backtracks, and
 * each character costs only the positions still alive (two for `*delete*`).
 */
function globMatches(steps: readonly GlobStep[], value: string, fold: (code: number) => number): boolean {
  const end = steps.length;
  // `marked[at] === round` when position `at` is already in the set being built for this round.
  const marked = new Int32Array(end + 1).fill(-1);
  let current = new Int32Array(end + 1);
  let next = new Int32Array(end + 1);
  let alive = enter(steps, 0, current, 0, marked, 0);
  for (let i = 0; i < value.length && alive > 0; i += 1) {
    const code = fold(value.charCodeAt(i));
    let count = 0;
    for (let k = 0; k < alive; k += 1) {
      const at = current[k]!;
      if (at === end) continue;
      const step = steps[at]!;
      const fits = step.kind === 'char' ? step.code === code : step.slash || code !== SLASH;
      // A run stays where it is after taking a character; anything else moves past it.
      if (fits) count = enter(steps, step.kind === 'run' ? at : at + 1, next, count, marked, i + 1);
    }
    const swap = current;
    current = next;
    next = swap;
    alive = count;
  }
  for (let k = 0; k < alive; k += 1) if (current[k] === end) return true;
  return false;
}

/** Adds a position to the set of `round`, and the positions past each run it stands at (a run may match nothing). */
function enter(
  steps: readonly GlobStep[],
  from: number,
  set: Int32Array,
  count: number,
  marked: Int32Array,
  round: number,
): number {
  let added = count;
  for (let at = from; at <= steps.length; at += 1) {
    if (marked[at] === round) break;
    marked[at] = round;
    set[added] = at;
    added += 1;
    if (steps[at]?.kind !== 'run') break;
  }
  return added;
}

/** Lower case for one UTF-16 unit, as a case-insensitive regular expression compares them. */
function foldCase(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code < 0x80) return code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}
