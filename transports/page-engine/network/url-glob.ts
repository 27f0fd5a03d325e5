/**
 * A URL glob as captures and stubs take it: `*` matches any run of characters, the rest literally.
 *
 * As `^a.*b.*c$` a glob of k stars backtracks through every way of placing them, about n^k steps on a URL
 * of n characters that fails to match at its end: `*a*a*a*a*a*a*a*!` took 1 s on a 39-character URL and
 * did not finish in two minutes on 200, in the gateway's thread (captures test each request here, and
 * Playwright tests stubs' patterns in this process too). Placing each literal between stars at its first
 * occurrence after the last is all a glob ever needs, so each is matched once and never retried: an atomic
 * group, written as a lookahead that captures and a backreference that consumes what it captured. A match
 * then scans the URL once per literal. (V8's linear engine, the `l` flag, would also bound it, but took 5 s
 * on a 1 MB data: URL that this takes milliseconds on.)
 */
export function urlGlob(pattern: string): RegExp {
  const literals = pattern.split(/\*+/).map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  if (literals.length === 1) return new RegExp(`^${literals[0]}$`);
  const first = literals[0];
  const last = literals[literals.length - 1];
  const placed = literals
    .slice(1, -1)
    .map((literal, index) => `(?=([\\s\\S]*?${literal}))\\${index + 1}`)
    .join('');
  return new RegExp(`^${first}${placed}[\\s\\S]*${last}$`);
}
