/**
 * `fn(arg)` as an expression for `page.evaluate`. The suite compiles as the served gateway does, with
 * esbuild's keepNames (test/compile-as-served.ts), which wraps a function's inner named functions in a
 * `__name(...)` helper that exists only in Node; the expression brings a stand-in along, as the snapshot
 * engine's installer does. `arg` travels as JSON.
 */
export function inPageCall<A>(fn: (arg: A) => unknown, arg: A): string {
  return `(() => { const __name = (target) => target; return (${fn})(${JSON.stringify(arg)}); })()`;
}
