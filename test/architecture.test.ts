import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** Lower index = lower layer. A file may import its own layer and any layer below, never above. */
const LAYERS = ['errors', 'transports', 'resolvers', 'schema', 'server'] as const;
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
/** Packages that only the upper layers may speak. */
const GRAPHQL_PACKAGES = /^(graphql|graphql-yoga|graphql-ws|@pothos\/|@graphql-)/;
const MAX_LINES = 400;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(path: string): number {
  return LAYERS.indexOf(relative(ROOT, path).split('/')[0] as (typeof LAYERS)[number]);
}

const sources = LAYERS.flatMap((layer) => files(join(ROOT, layer)));

describe('architecture', () => {
  it('imports point down the layers only', () => {
    const violations: string[] = [];
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = resolve(file, '..', specifier);
        // Tests beside the code may use the shared test helpers; production code may not.
        if (file.endsWith('.test.ts') && relative(ROOT, target).startsWith('test/helpers/')) continue;
        const targetLayer = layerOf(target);
        if (targetLayer === -1)
          violations.push(`${relative(ROOT, file)} imports outside the layers: ${specifier}`);
        else if (targetLayer > layerOf(file))
          violations.push(`${relative(ROOT, file)} imports upward: ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('errors, transports and resolvers know nothing of GraphQL', () => {
    const violations = sources
      .filter((file) => layerOf(file) <= LAYERS.indexOf('resolvers') && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? '')
          .filter((specifier) => GRAPHQL_PACKAGES.test(specifier))
          .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
      );
    expect(violations).toEqual([]);
  });

  it(`source files stay under ${MAX_LINES} lines`, () => {
    const long = sources
      .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
