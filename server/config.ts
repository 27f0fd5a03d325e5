import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { ClientDirectory, tokenGrants } from '../resolvers/governance/client-identity.js';

export type EvalScope = 'none' | 'main' | 'renderer' | 'both';

export interface ServeConfig {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /**
   * Agent token(s), comma-separated for several. Required for any non-loopback bind; when set, every
   * request must carry an agent or approver token.
   */
  readonly token: string | undefined;
  /** Approver token(s), comma-separated: only their holders may see and answer approval requests. */
  readonly approverToken?: string | undefined;
  /** A policy file (YAML or JSON), reloaded when it changes; the built-in policy when absent. */
  readonly policyFile?: string | undefined;
  /**
   * Where the hash-chained audit log is kept (the CLI's default: `.artifacts/audit`). A gateway built
   * without one (tests, benchmarks) audits to a fresh temporary folder that it removes when it stops.
   */
  readonly auditDir?: string | undefined;
  /** How long an operation waits for an approver before APPROVAL_TIMEOUT (default 60 s). */
  readonly approvalTimeoutMs?: number | undefined;
  /**
   * How often graphql-ws pings each socket; a socket that has not answered by the next ping is closed
   * (default 12 s). A client whose socket is backed up cannot answer, so this also bounds how long a
   * stalled subscriber is kept before it is cut off.
   */
  readonly keepAliveMs?: number | undefined;
  /** Sustained mutations per second per client (default 20; bursts of twice as many pass). */
  readonly mutationsPerSecond?: number | undefined;
  readonly allowEval: EvalScope;
  /** `--allow-remote-cdp`: attach and discover may reach DevTools endpoints on other hosts. */
  readonly allowRemoteCdp?: boolean | undefined;
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
export const DEFAULT_AUDIT_DIR = '.artifacts/audit';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

export const USAGE = `Usage: stagegraph serve [options]

  --host <addr>          bind address (default 127.0.0.1; anything else needs --token)
  --port <n>             port (default ${DEFAULT_PORT}; 0 picks a free one)
  --token <secret>       agent token: require "Authorization: Bearer <secret>" (or STAGEGRAPH_TOKEN;
                         comma-separated for several)
  --approver-token <s>   approver token(s): only these may answer approvals (or STAGEGRAPH_APPROVER_TOKEN)
  --policy <file>        policy file (YAML or JSON), reloaded on change (default: the built-in policy)
  --audit-dir <dir>      hash-chained audit log (default ./${DEFAULT_AUDIT_DIR})
  --approval-timeout <ms>  how long an operation waits for an approver (default 60000)
  --mutation-rate <n>    mutations per second per client (default 20, bursts of twice that)
  --allow-eval[=scope]   expose eval fields: main, renderer, or both when no scope is given
  --allow-remote-cdp     let attach and discover reach DevTools ports on other hosts (default: loopback only)
  --electron <path>      Electron binary for launches that name none (or ELECTRON_PATH)
  --artifacts <dir>      where sessions keep run logs, command output, screenshots (default ./.artifacts)
  --upload-root <dir>    a folder agents may upload files from; repeatable (default: the working dir)
  --demo                 launch the fixture app as a demo session
  --help                 this text`;

/** Who may connect: the configured agent and approver tokens. */
export function clientDirectory(config: ServeConfig): ClientDirectory {
  return new ClientDirectory([
    ...tokenGrants(config.token, 'agent'),
    ...tokenGrants(config.approverToken, 'approver'),
  ]);
}

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
      'approver-token': { type: 'string' },
      policy: { type: 'string' },
      'audit-dir': { type: 'string', default: DEFAULT_AUDIT_DIR },
      'approval-timeout': { type: 'string' },
      'mutation-rate': { type: 'string' },
      'allow-eval': { type: 'string' },
      'allow-remote-cdp': { type: 'boolean', default: false },
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
    approverToken: values['approver-token'] ?? environment.STAGEGRAPH_APPROVER_TOKEN,
    policyFile: values.policy === undefined ? undefined : resolve(values.policy),
    auditDir: resolve(values['audit-dir']),
    approvalTimeoutMs: positive(values['approval-timeout'], '--approval-timeout'),
    mutationsPerSecond: positive(values['mutation-rate'], '--mutation-rate'),
    allowEval: parseEvalScope(values['allow-eval']),
    allowRemoteCdp: values['allow-remote-cdp'],
    electron: values.electron,
    demo: values.demo,
    artifactsDir: resolve(values.artifacts),
    uploadRoots: (values['upload-root'] ?? [process.cwd()]).map((root) => resolve(root)),
  });
}

function positive(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new StagegraphError('BAD_INPUT', `${flag} must be a positive number, got "${raw}".`);
  return value;
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
  // Refuses an empty token, or one given as both agent and approver, before anything is bound.
  clientDirectory(config);
  return config;
}

/** parseArgs treats `--allow-eval` without `=` as missing its value; normalise it to `--allow-eval=`. */
export function normaliseArgv(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg === '--allow-eval' ? '--allow-eval=' : arg));
}
