import { StagegraphError } from '../../../errors/stagegraph-error.js';

/** One lexeme of a query selector, with the 1-based column it starts at (what errors point to). */
export type Token =
  | { readonly type: 'word'; readonly text: string; readonly column: number }
  | { readonly type: 'string'; readonly text: string; readonly column: number }
  | { readonly type: 'equals' | 'contains' | 'comma' | 'descend' | 'fallback'; readonly column: number }
  | { readonly type: 'end'; readonly column: number };

/** How each token reads in an error's "found …". */
export function describeToken(token: Token): string {
  switch (token.type) {
    case 'word':
      return `\`${token.text}\``;
    case 'string':
      return `the string ${JSON.stringify(token.text)}`;
    case 'equals':
      return '`=`';
    case 'contains':
      return '`~=`';
    case 'comma':
      return '`,`';
    case 'descend':
      return '`>>`';
    case 'fallback':
      return '`??`';
    case 'end':
      return 'the end of the query';
  }
}

/** SELECTOR_SYNTAX pointing at a column, saying what the parser expected there and what it found. */
export function syntaxError(
  source: string,
  column: number,
  expected: string,
  found: string,
): StagegraphError {
  return new StagegraphError(
    'SELECTOR_SYNTAX',
    `Query selector syntax error at column ${column}: expected ${expected}, found ${found}.`,
    { details: { query: source, column, expected, found } },
  );
}

const SPACE = /\s/;

/** Splits a selector into tokens; a bare word runs until a space, `,`, `=`, `~=`, a quote, `>>` or `??`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    const column = i + 1;
    if (SPACE.test(char)) {
      i += 1;
    } else if (char === '"' || char === "'") {
      const { text, next } = quoted(source, i);
      tokens.push({ type: 'string', text, column });
      i = next;
    } else if (source.startsWith('>>', i) || source.startsWith('??', i)) {
      tokens.push({ type: char === '>' ? 'descend' : 'fallback', column });
      i += 2;
    } else if (source.startsWith('~=', i)) {
      tokens.push({ type: 'contains', column });
      i += 2;
    } else if (char === '=' || char === ',') {
      tokens.push({ type: char === '=' ? 'equals' : 'comma', column });
      i += 1;
    } else {
      const start = i;
      while (i < source.length && !endsWord(source, i)) i += 1;
      tokens.push({ type: 'word', text: source.slice(start, i), column });
    }
  }
  tokens.push({ type: 'end', column: source.length + 1 });
  return tokens;
}

function endsWord(source: string, i: number): boolean {
  const char = source[i]!;
  return (
    SPACE.test(char) ||
    char === ',' ||
    char === '=' ||
    char === '"' ||
    char === "'" ||
    source.startsWith('~=', i) ||
    source.startsWith('>>', i) ||
    source.startsWith('??', i)
  );
}

/** A quoted string from `start` (its opening quote); a backslash escapes the next character. */
function quoted(source: string, start: number): { text: string; next: number } {
  const quote = source[start]!;
  let text = '';
  let i = start + 1;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < source.length) {
      text += source[i + 1];
      i += 2;
    } else if (char === quote) {
      return { text, next: i + 1 };
    } else {
      text += char;
      i += 1;
    }
  }
  throw syntaxError(
    source,
    source.length + 1,
    `a closing ${quote} for the string at column ${start + 1}`,
    'the end of the query',
  );
}
