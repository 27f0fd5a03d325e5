import { join, resolve } from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** Product code: every layer, the observer page, the CLI and the client (tests, benches, fixtures are not). */
const PRODUCT = [
  'errors',
  'transports',
  'domain',
  'schema',
  'plugins',
  'server',
  'mcp',
  'web',
  'cli',
  'clients',
];

describe('import cycles', () => {
  // Type-only imports count: a cycle of types still ties two files' designs together, so neither can be
  // understood, moved or changed alone — the coupling this test is here to keep out.
  it('product code has none, type-only imports included', async () => {
    const graph = await madge(
      PRODUCT.map((folder) => join(ROOT, folder)),
      {
        fileExtensions: ['ts', 'tsx', 'js', 'mjs'],
        tsConfig: join(ROOT, 'tsconfig.json'),
        excludeRegExp: [/\.test\.tsx?$/, /node_modules/, /\/generated\//],
        detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
      },
    );
    expect(graph.circular().map((cycle) => cycle.join(' > '))).toEqual([]);
  }, 300_000);
});
