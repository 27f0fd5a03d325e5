import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_REQUEST_BYTES,
  MAX_DOCUMENT_TOKENS,
  MAX_NESTING,
  MAX_QUERY_COST,
  MAX_QUERY_DEPTH,
} from './request-limits.js';
import { SERVE_FLAGS } from './serve-flags.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** Runs the CLI as a user would, with Node's module-loading trace on to see what it loaded. */
function run(...argv: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...argv], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DEBUG: 'esm' },
    timeout: 60_000,
  });
  const loaded = [...result.stderr.matchAll(/Storing (file:\/\/\S+)/g)].map((match) => match[1]!);
  const stderr = result.stderr
    .split('\n')
    .filter((line) => !/^(ESM \d+:|\s|[}\]]|$)/.test(line))
    .join('\n');
  return { code: result.status, stdout: result.stdout, stderr, loaded };
}

describe('stagegraph without a server', () => {
  it.each([['--help'], ['-h'], ['help'], ['serve', '--help'], ['--version']])(
    '%j answers on stdout, exits 0 and loads neither tsx nor the server',
    (...argv) => {
      const { code, stdout, stderr, loaded } = run(...argv);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout.length).toBeGreaterThan(5);
      expect(loaded.some((url) => url.endsWith('/server/cli-help.js'))).toBe(true);
      expect(loaded.filter((url) => /tsx|graphql|yoga|\.ts$/.test(url))).toEqual([]);
    },
  );

  it('prints its version', () => {
    expect(run('--version').stdout.trim()).toBe(`stagegraph ${VERSION}`);
  });

  it('lists every serve flag with its environment variable', () => {
    const { stdout } = run('serve', '--help');
    for (const [name, flag] of Object.entries(SERVE_FLAGS)) {
      expect(stdout).toContain(`--${name}`);
      expect(stdout).toContain(`env: ${flag.env}`);
    }
  });

  it('lists the limits a request is held to, with their values', () => {
    const { stdout } = run('serve', '--help');
    const limits = stdout.slice(stdout.indexOf('Limits'));
    for (const value of [
      DEFAULT_MAX_REQUEST_BYTES,
      MAX_DOCUMENT_TOKENS,
      MAX_NESTING,
      MAX_QUERY_DEPTH,
      MAX_QUERY_COST,
    ])
      expect(limits).toContain(String(value));
    expect(limits).toContain('--max-request-bytes');
  });

  it('refuses an unknown command and a bare call on stderr with exit code 2', () => {
    const unknown = run('srve');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Unknown command "srve"');
    expect(run().code).toBe(2);
  });
});
