import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ClientDirectory,
  type TokenGrant,
  type TokenRole,
  tokenGrants,
} from '../domain/governance/clients/client-identity.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { AppIsolationRequest } from '../transports/process/isolation.js';
import { isLoopbackHost } from '../transports/process/loopback.js';
import { type ClusterConfig, parseClusterConfig } from './cluster-config.js';
import { fromEnvironment, SERVE_FLAGS, type ServeFlag, serveUsage } from './serve-flags.js';
import { readTokenFile } from './token-files.js';

export type EvalScope = 'none' | 'main' | 'renderer' | 'both';

/**
 * The smallest request limit accepted: the observer page's and GraphiQL's introspection, the largest
 * documents the gateway's own clients send, are about 2 KB; 16 KiB leaves room for their variables.
 */
const MIN_REQUEST_BYTES = 16 * 1024;

export interface ServeConfig {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /**
   * Agent token(s), comma-separated for several. Required for any non-loopback bind; when set, every
   * request must carry an agent or approver token.
   */
  readonly token: string | undefined;
  /** Web origins besides the gateway's own whose pages may call it (`--allow-origin`); none by default. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Host header names besides loopback ones the gateway answers (`--allowed-host`; a named bind address too). */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Approver token(s), comma-separated: only their holders may answer approval requests. */
  readonly approverToken?: string | undefined;
  /**
   * Observer token(s), comma-separated: queries and subscriptions only (sessions, streams, audit, the
   * approval queue); every mutation is refused with ROLE_FORBIDDEN.
   */
  readonly observerToken?: string | undefined;
  /**
   * Tokens known by their SHA-256 digests only: those of `--token-file`, `--approver-token-file` and
   * `--observer-token-file`, and the clear ones above once `serve` has hashed them (server/secrets.ts).
   */
  readonly hashedTokens?: readonly TokenGrant[] | undefined;
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
  /**
   * The most bytes one request may carry — an HTTP body, a GET query string, a graphql-ws message — on
   * every route (default DEFAULT_MAX_REQUEST_BYTES, 1 MiB); larger ones are refused unread (REQUEST_TOO_LARGE).
   */
  readonly maxRequestBytes?: number | undefined;
  readonly allowEval: EvalScope;
  /** `--allow-remote-cdp`: attach and discover may reach DevTools endpoints on other hosts. */
  readonly allowRemoteCdp?: boolean | undefined;
  /**
   * Whether launched apps get a PID namespace of their own (transports/process/isolation.ts): `serve`
   * asks for `auto`; a gateway built in process without it starts apps as plain children (`off`).
   */
  readonly appIsolation?: AppIsolationRequest | undefined;
  /** An Electron binary for launches that name none (`--electron`). */
  readonly electron: string | undefined;
  /** Launch the fixture app as a demo session once serving. */
  readonly demo: boolean;
  /** Each session's artifacts (saved screenshots, ...) go to `<artifactsDir>/<session id>/`. */
  readonly artifactsDir: string;
  /**
   * Plugin modules (`--plugin`, repeatable): paths (relative to the working directory) or package names,
   * loaded in order before the schema is built (schema/plugins/); none by default.
   */
  readonly plugins?: readonly string[] | undefined;
  /** The only folders whose files an agent may upload (`setInputFiles`); default: the working directory. */
  readonly uploadRoots: readonly string[];
  /** `--cluster` and the flags that go with it; absent, the gateway is one process and never loads a Redis client. */
  readonly cluster?: ClusterConfig | undefined;
}

export const USAGE = serveUsage();

/** Who may connect: the configured agent, approver and observer tokens. */
export function clientDirectory(config: ServeConfig): ClientDirectory {
  return new ClientDirectory([
    ...tokenGrants(config.token, 'agent'),
    ...tokenGrants(config.approverToken, 'approver'),
    ...tokenGrants(config.observerToken, 'observer'),
    ...(config.hashedTokens ?? []),
  ]);
}

/** Whether any token, clear or hashed, grants `role`. */
export function grantsRole(config: ServeConfig, role: TokenRole): boolean {
  const clear = { agent: config.token, approver: config.approverToken, observer: config.observerToken }[role];
  return (
    tokenGrants(clear, role).length > 0 || (config.hashedTokens ?? []).some((grant) => grant.role === role)
  );
}

/** Parses `serve` arguments; any mistake is a BAD_INPUT naming the flag, before anything is bound. */
export function parseServeArgs(
  argv: readonly string[],
  environment: NodeJS.ProcessEnv = process.env,
): ServeConfig {
  const { values: given } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: SERVE_FLAGS,
  });
  const values = withEnvironment(given, environment);
  const port = Number(values.port ?? SERVE_FLAGS.port.fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new StagegraphError('BAD_INPUT', `--port must be an integer 0..65535, got "${values.port}".`);
  }
  return validateServeConfig({
    host: values.host ?? SERVE_FLAGS.host.fallback,
    port,
    token: values.token,
    approverToken: values['approver-token'],
    observerToken: values['observer-token'],
    hashedTokens: [
      ...fileGrants(values['token-file'], 'agent', '--token-file'),
      ...fileGrants(values['approver-token-file'], 'approver', '--approver-token-file'),
      ...fileGrants(values['observer-token-file'], 'observer', '--observer-token-file'),
    ],
    allowedOrigins: (values['allow-origin'] ?? []).flatMap(splitList).map(parseOrigin),
    allowedHosts: (values['allowed-host'] ?? []).flatMap(splitList).map((host) => host.toLowerCase()),
    policyFile: values.policy === undefined ? undefined : resolve(values.policy),
    // Beside the artifacts unless named: a second gateway given its own --artifacts gets its own chain.
    auditDir: resolve(
      values['audit-dir'] ?? join(values.artifacts ?? SERVE_FLAGS.artifacts.fallback, 'audit'),
    ),
    approvalTimeoutMs: positive(values['approval-timeout'], '--approval-timeout'),
    mutationsPerSecond: positive(values['mutation-rate'], '--mutation-rate'),
    maxRequestBytes: byteCount(values['max-request-bytes'], '--max-request-bytes'),
    allowEval: parseEvalScope(values['allow-eval']),
    allowRemoteCdp: values['allow-remote-cdp'] ?? false,
    appIsolation: parseIsolation(values['app-isolation'] ?? SERVE_FLAGS['app-isolation'].fallback),
    electron: values.electron,
    demo: values.demo ?? false,
    artifactsDir: resolve(values.artifacts ?? SERVE_FLAGS.artifacts.fallback),
    plugins: (values.plugin ?? []).flatMap(splitList),
    uploadRoots: (values['upload-root'] ?? [process.cwd()]).map((root) => resolve(root)),
    cluster: parseClusterConfig(values),
  });
}

type ServeValues = ReturnType<typeof parseArgs<{ options: typeof SERVE_FLAGS }>>['values'];

/** Fills each option the command line left out from its environment variable; fallbacks apply at use. */
function withEnvironment(given: ServeValues, environment: NodeJS.ProcessEnv): ServeValues {
  const values: Record<string, unknown> = { ...given };
  for (const [name, flag] of Object.entries(SERVE_FLAGS) as [string, ServeFlag][]) {
    if (values[name] !== undefined) continue;
    const raw = environment[flag.env];
    if (raw !== undefined) {
      try {
        values[name] = fromEnvironment(flag, raw);
      } catch (error) {
        throw new StagegraphError('BAD_INPUT', (error as Error).message);
      }
    }
  }
  return values as ServeValues;
}

function fileGrants(path: string | undefined, role: TokenRole, flag: string): TokenGrant[] {
  return path === undefined ? [] : readTokenFile(resolve(path), role, flag);
}

function positive(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new StagegraphError('BAD_INPUT', `${flag} must be a positive number, got "${raw}".`);
  return value;
}

/** A whole number of bytes, at least MIN_REQUEST_BYTES: a smaller limit would refuse the gateway's own clients. */
function byteCount(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= MIN_REQUEST_BYTES))
    throw new StagegraphError(
      'BAD_INPUT',
      `${flag} must be a whole number of bytes, at least ${MIN_REQUEST_BYTES}; got "${raw}".`,
    );
  return value;
}

function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** An origin is compared byte for byte with a browser's Origin header, so it is normalised here. */
function parseOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new StagegraphError(
      'BAD_INPUT',
      `--allow-origin takes an origin like http://localhost:3000, got "${raw}".`,
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw.replace(/\/$/, ''))
    throw new StagegraphError(
      'BAD_INPUT',
      `--allow-origin takes an origin (scheme://host[:port], no path), got "${raw}".`,
    );
  return url.origin;
}

function parseIsolation(raw: string): AppIsolationRequest {
  if (raw === 'auto' || raw === 'required' || raw === 'off') return raw;
  throw new StagegraphError('BAD_INPUT', `--app-isolation takes auto, required or off, got "${raw}".`);
}

/** `--allow-eval` alone means both; parseArgs gives "" for a bare `--allow-eval=`. */
function parseEvalScope(raw: string | undefined): EvalScope {
  if (raw === undefined) return 'none';
  if (raw === '' || raw === 'both') return 'both';
  if (raw === 'main' || raw === 'renderer') return raw;
  throw new StagegraphError('BAD_INPUT', `--allow-eval takes main or renderer, got "${raw}".`);
}

export function validateServeConfig(config: ServeConfig): ServeConfig {
  if (!isLoopbackHost(config.host) && !grantsRole(config, 'agent')) {
    throw new StagegraphError(
      'BAD_INPUT',
      `Refusing to bind ${config.host} without a token: anyone who can reach it could drive your desktop.`,
      { hint: 'Pass --token-file <file> (or STAGEGRAPH_TOKEN_FILE), or bind 127.0.0.1.' },
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
