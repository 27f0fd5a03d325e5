import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
/** Lower index = lower layer. A file may import its own layer and any layer below, never above. */
const LAYERS = ['errors', 'transports', 'domain', 'schema', 'plugins', 'server', 'mcp'] as const;
/**
 * The MCP bridge sits beside server/ at the top: server/ serves it at /mcp and `stagegraph mcp` starts a
 * gateway, so each may import the other.
 */
const BESIDE_SERVER = 'mcp';
/** What the bridge may import: it is a client of the GraphQL schema, never of the domain or a transport. */
const MCP_MAY_IMPORT = ['mcp', 'server', 'errors'];
/**
 * Inside transports/: the shared parts, each with the shared parts it may use. Every other folder is one
 * transport, which may use any shared part but never another transport.
 */
const SHARED_TRANSPORT_PARTS: Record<string, readonly string[]> = {
  contract: [],
  process: ['contract'],
  protocol: ['contract'],
  'main-agent': ['contract', 'process', 'protocol'],
  'page-engine': ['contract', 'process', 'protocol', 'main-agent'],
};
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
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
  const layer = relative(ROOT, path).split('/')[0] as (typeof LAYERS)[number];
  return LAYERS.indexOf(layer === BESIDE_SERVER ? 'server' : layer);
}

/** The folder directly under transports/ that holds `path`, or null for a file lying loose there. */
function transportFolderOf(path: string): string | null {
  const parts = relative(join(ROOT, 'transports'), path).split('/');
  return parts.length > 1 ? (parts[0] as string) : null;
}

const sources = LAYERS.flatMap((layer) => files(join(ROOT, layer)));

describe('architecture', () => {
  it('imports point down the layers only', () => {
    const violations: string[] = [];
    for (const file of sources) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
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

  it('a transport imports only the shared parts of transports/, and a shared part only those below it', () => {
    const violations: string[] = [];
    for (const file of sources.filter((path) => relative(ROOT, path).startsWith('transports/'))) {
      const from = transportFolderOf(file);
      if (from === null) {
        violations.push(`${relative(ROOT, file)} lies loose in transports/: put it in a folder`);
        continue;
      }
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = resolve(file, '..', specifier);
        if (!relative(ROOT, target).startsWith('transports/')) continue;
        const to = transportFolderOf(target);
        if (to === from) continue;
        const allowed = SHARED_TRANSPORT_PARTS[from] ?? Object.keys(SHARED_TRANSPORT_PARTS);
        if (to === null || !allowed.includes(to))
          violations.push(`${relative(ROOT, file)} (${from}) imports ${to ?? 'a loose file'}: ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the MCP bridge imports only server/ and errors/: GraphQL is its way into the gateway', () => {
    const violations = sources
      .filter((file) => relative(ROOT, file).startsWith(`${BESIDE_SERVER}/`))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
          .filter((specifier) => specifier.startsWith('.'))
          .filter(
            (specifier) =>
              !MCP_MAY_IMPORT.includes(relative(ROOT, resolve(file, '..', specifier)).split('/')[0] ?? ''),
          )
          .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
      );
    expect(violations).toEqual([]);
  });

  it('errors, transports and the domain know nothing of GraphQL', () => {
    const violations = sources
      .filter((file) => layerOf(file) <= LAYERS.indexOf('domain') && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(IMPORT)]
          .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
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
