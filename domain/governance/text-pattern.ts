/**
 * Patterns as policy authors write them. `/source/flags` is a regular expression (searched, not anchored);
 * anything else is a glob matched against the whole value: in text (titles, names, urls, arguments) `*`
 * matches any run of characters and the match ignores case; in paths `*` stops at `/`, `**` crosses it,
 * and case counts, as it does on the file systems Stagegraph runs on.
 */
export type PatternFlavour = 'text' | 'path';

export interface TextPattern {
  readonly source: string;
  test(value: string): boolean;
}

const REGEX_LITERAL = /^\/(.+)\/([dgimsuy]*)$/s;

/** Throws a SyntaxError naming what is wrong; the policy loader turns it into POLICY_INVALID. */
export function compilePattern(source: string, flavour: PatternFlavour): TextPattern {
  const literal = REGEX_LITERAL.exec(source);
  // `g` and `y` make `test` stateful (lastIndex), which would make one rule match alternately.
  const regex = literal
    ? new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''))
    : new RegExp(`^${globToRegExpSource(source, flavour)}$`, flavour === 'text' ? 'is' : 's');
  return { source, test: (value) => regex.test(value) };
}

function globToRegExpSource(glob: string, flavour: PatternFlavour): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*') {
      const double = glob[i + 1] === '*';
      if (double) i += 1;
      out += flavour === 'text' || double ? '.*' : '[^/]*';
    } else if (char === '?') {
      out += flavour === 'text' ? '.' : '[^/]';
    } else {
      out += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return out;
}
