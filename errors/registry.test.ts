import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from './registry.js';

const ROOT = new URL('..', import.meta.url).pathname;
const SOURCE_DIRS = ['errors', 'transports', 'domain', 'schema', 'server'];
const RAISED_CODE = /StagegraphError\(\s*['"`]([A-Za-z_]+)['"`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('error registry', () => {
  it('every code raised anywhere in the sources is registered', () => {
    const unregistered: string[] = [];
    let raised = 0;
    for (const file of SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
      for (const match of readFileSync(file, 'utf8').matchAll(RAISED_CODE)) {
        raised += 1;
        if (!isErrorCode(match[1]!)) unregistered.push(`${relative(ROOT, file)}: ${match[1]}`);
      }
    }
    expect(unregistered).toEqual([]);
    expect(raised).toBeGreaterThan(5);
  });

  it('every entry says what it means and what to do', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(info.meaning.length, code).toBeGreaterThan(20);
      expect(info.hint.length, code).toBeGreaterThan(20);
    }
  });
});
