import { transform } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * The served gateway runs its TypeScript through tsx, which compiles with esbuild's `keepNames`: every
 * named function and arrow is wrapped in a `__name(...)` helper that exists only in Node. A function
 * shipped into a page (`page.evaluate(fn)`) that defines one inside itself throws there. Vite compiles
 * without it, so the suite passed where `bin/stagegraph.js serve` failed (issue 33: `snapshotChanges`
 * streamed nothing through a served gateway). The suite compiles the project's sources as tsx does.
 */
const NAME_HELPER =
  /^var __name = \(target, value\) => __defProp\(target, "name", \{ value, configurable: true \}\);$/m;
const HOISTED_NAME_HELPER =
  'function __name(target, value) { return Object.defineProperty(target, "name", { value, configurable: true }); }';

export function compileAsServed(): Plugin {
  return {
    name: 'stagegraph:compile-as-served',
    enforce: 'pre',
    async transform(code, id) {
      if (!/\.m?ts$/.test(id) || id.includes('/node_modules/')) return null;
      const compiled = await transform(code, {
        loader: 'ts',
        format: 'esm',
        keepNames: true,
        target: `node${process.versions.node}`,
        sourcemap: true,
        sourcefile: id,
      });
      // Vitest hoists vi.mock and the imports it affects above esbuild's `var __name = …`, so a mock
      // factory defining a named function would call an undefined helper: a function declaration is
      // hoisted whole. The replacement keeps the line count, so the source map still holds.
      return { code: compiled.code.replace(NAME_HELPER, HOISTED_NAME_HELPER), map: compiled.map };
    },
  };
}
