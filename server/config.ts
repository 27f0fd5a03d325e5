import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StagegraphError } from '../errors/stagegraph-error.js';

export type EvalScope = 'none' | 'main' | 'renderer' | 'both';

export interface ServeConfig {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Required for any non-loopback bind; when set, every request must carry it. */
  readonly token: string | undefined;
  readonly allowEval: EvalScope;
  /** An Electron binary for launches that name none (`--electron`). */
  readonly electron: string | undefined;
  /** Launch the fixture app as a demo session once serving. */
  readonly demo: boolean;
  /** Each session's artifacts (saved screenshots, ...) go to `<artifactsDir>/<session id>/`. */
  readonly artifactsDir: string;
  /** The only folders whose files an agent may upload (`setInputFiles`); default: the working directory. */
  readonly uploadRoots: readonly string[];
}

export const DEFAULT_PORT = 4700;
export const DEFAULT_ARTIFACTS_DIR = '.artifacts';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

export const USAGE = `Usage: stagegraph serve [options]

  --host <addr>          bind address (default 127.0.0.1; anything else needs --token)
  --port <n>             port (default ${DEFAULT_PORT}; 0 picks a free one)
  --token <secret>       require "Authorization: Bearer <secret>" (or STAGEGRAPH_TOKEN)
  --allow-eval[=scope]   expose eval fields: main, renderer, or both when no scope is given
  --electron <path>      Electron binary for launches that name none (or ELECTRON_PATH)
  --artifacts <dir>      where sessions keep saved screenshots (default ./.artifacts)
  --upload-root <dir>    a folder agents may upload files from; repeatable (default: the working dir)
  --demo                 launch the fixture app as a demo session
  --help                 this text`;

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/** Parses `serve` arguments; any mistake is a BAD_INPUT naming the flag, before anything is bound. */
export function parseServeArgs(
  argv: readonly string[],
  environment: NodeJS.ProcessEnv = process.env,
): ServeConfig {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: String(DEFAULT_PORT) },
      token: { type: 'string' },
      'allow-eval': { type: 'string' },
      electron: { type: 'string' },
      demo: { type: 'boolean', default: false },
      artifacts: { type: 'string', default: DEFAULT_ARTIFACTS_DIR },
      'upload-root': { type: 'string', multiple: true },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new StagegraphError('BAD_INPUT', `--port must be an integer 0..65535, got "${values.port}".`);
  }
  return validateServeConfig({
    host: values.host,
    port,
    token: values.token ?? environment.STAGEGRAPH_TOKEN,
    allowEval: parseEvalScope(values['allow-eval']),
    electron: values.electron,
    demo: values.demo,
    artifactsDir: resolve(values.artifacts),
    uploadRoots: (values['upload-root'] ?? [process.cwd()]).map((root) => resolve(root)),
  });
}

/** `--allow-eval` alone means both; parseArgs gives "" for a bare `--allow-eval=`. */
function parseEvalScope(raw: string | undefined): EvalScope {
  if (raw === undefined) return 'none';
  if (raw === '' || raw === 'both') return 'both';
  if (raw === 'main' || raw === 'renderer') return raw;
  throw new StagegraphError('BAD_INPUT', `--allow-eval takes main or renderer, got "${raw}".`);
}

export function validateServeConfig(config: ServeConfig): ServeConfig {
  if (!isLoopback(config.host) && !config.token) {
    throw new StagegraphError(
      'BAD_INPUT',
      `Refusing to bind ${config.host} without a token: anyone who can reach it could drive your desktop.`,
      { hint: 'Pass --token <secret> (or STAGEGRAPH_TOKEN), or bind 127.0.0.1.' },
    );
  }
  return config;
}

/** parseArgs treats `--allow-eval` without `=` as missing its value; normalise it to `--allow-eval=`. */
export function normaliseArgv(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg === '--allow-eval' ? '--allow-eval=' : arg));
}
