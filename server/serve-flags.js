// The one table of `stagegraph serve` options: parseServeArgs (config.ts) parses with it and `--help`
// prints it. Plain JavaScript with JSDoc types, so `stagegraph --help` answers without TypeScript or the
// server. Each option also reads an environment variable when the flag is absent; `fallback` applies
// when neither is given (not parseArgs' `default`, which would hide the variable).

import { DEFAULT_MAX_REQUEST_BYTES, limitsUsage } from './request-limits.js';

const DEFAULT_PORT = 4700;
const DEFAULT_ARTIFACTS_DIR = '.artifacts';

/**
 * @typedef {object} ServeFlag
 * @property {'string' | 'boolean'} type
 * @property {boolean} [multiple] repeatable; its variable takes a comma-separated list
 * @property {string} env
 * @property {string} [value] the placeholder shown in --help
 * @property {string | boolean} [fallback]
 * @property {string} help
 * @property {boolean} [secret] a credential: never handed on to the apps the gateway starts
 */

export const SERVE_FLAGS = /** @type {const} @satisfies {Record<string, ServeFlag>} */ ({
  host: {
    type: 'string',
    env: 'STAGEGRAPH_HOST',
    value: '<addr>',
    fallback: '127.0.0.1',
    help: 'bind address (default 127.0.0.1; anything else needs --token-file or --token)',
  },
  port: {
    type: 'string',
    env: 'STAGEGRAPH_PORT',
    value: '<n>',
    fallback: String(DEFAULT_PORT),
    help: `port (default ${DEFAULT_PORT}; 0 picks a free one)`,
  },
  token: {
    type: 'string',
    env: 'STAGEGRAPH_TOKEN',
    value: '<secret>',
    secret: true,
    help: 'agent token(s), comma-separated: require "Authorization: Bearer <secret>" (any process of this user can read a command line: prefer --token-file)',
  },
  'allow-origin': {
    type: 'string',
    multiple: true,
    env: 'STAGEGRAPH_ALLOW_ORIGINS',
    value: '<origin>',
    help: 'a web origin (e.g. http://localhost:3000) whose pages may call the gateway; repeatable',
  },
  'allowed-host': {
    type: 'string',
    multiple: true,
    env: 'STAGEGRAPH_ALLOWED_HOSTS',
    value: '<name>',
    help: "a Host name besides loopback ones the gateway answers to (a proxy's); repeatable",
  },
  'approver-token': {
    type: 'string',
    env: 'STAGEGRAPH_APPROVER_TOKEN',
    value: '<secret>',
    secret: true,
    help: 'approver token(s): only these may answer approvals (prefer --approver-token-file)',
  },
  'observer-token': {
    type: 'string',
    env: 'STAGEGRAPH_OBSERVER_TOKEN',
    value: '<secret>',
    secret: true,
    help: 'observer token(s): read-only, queries and subscriptions (the observer page at /)',
  },
  'token-file': {
    type: 'string',
    env: 'STAGEGRAPH_TOKEN_FILE',
    value: '<file>',
    secret: true,
    help: 'agent tokens from a mode-600 file, one per line: sha256:<hex> hashes or clear tokens (prefer this to --token)',
  },
  'approver-token-file': {
    type: 'string',
    env: 'STAGEGRAPH_APPROVER_TOKEN_FILE',
    value: '<file>',
    secret: true,
    help: 'approver token hashes from a mode-600 file (stagegraph token create --role approver --file <file>)',
  },
  'observer-token-file': {
    type: 'string',
    env: 'STAGEGRAPH_OBSERVER_TOKEN_FILE',
    value: '<file>',
    secret: true,
    help: 'observer token hashes from a mode-600 file (stagegraph token create --role observer --file <file>)',
  },
  policy: {
    type: 'string',
    env: 'STAGEGRAPH_POLICY',
    value: '<file>',
    help: 'policy file (YAML or JSON), reloaded on change (default: the built-in policy)',
  },
  'audit-dir': {
    type: 'string',
    env: 'STAGEGRAPH_AUDIT_DIR',
    value: '<dir>',
    help: 'hash-chained audit log, written by this gateway alone (default: audit/ under --artifacts)',
  },
  'approval-timeout': {
    type: 'string',
    env: 'STAGEGRAPH_APPROVAL_TIMEOUT',
    value: '<ms>',
    help: 'how long an operation waits for an approver (default 60000)',
  },
  'mutation-rate': {
    type: 'string',
    env: 'STAGEGRAPH_MUTATION_RATE',
    value: '<n>',
    help: 'mutations per second per client (default 20, bursts of twice that)',
  },
  'max-request-bytes': {
    type: 'string',
    env: 'STAGEGRAPH_MAX_REQUEST_BYTES',
    value: '<n>',
    help: `most bytes per HTTP body, GET query string or WebSocket message, every route (default ${DEFAULT_MAX_REQUEST_BYTES})`,
  },
  'allow-eval': {
    type: 'string',
    env: 'STAGEGRAPH_ALLOW_EVAL',
    value: '[=scope]',
    help: 'expose eval fields: main, renderer, or both when no scope is given',
  },
  'allow-remote-cdp': {
    type: 'boolean',
    env: 'STAGEGRAPH_ALLOW_REMOTE_CDP',
    help: 'let attach and discover reach DevTools ports on other hosts (default: loopback only)',
  },
  'app-isolation': {
    type: 'string',
    env: 'STAGEGRAPH_APP_ISOLATION',
    value: '<mode>',
    fallback: 'auto',
    help: 'auto: start launched apps in a PID namespace of their own where possible (default); required: refuse to start without one; off',
  },
  electron: {
    type: 'string',
    env: 'ELECTRON_PATH',
    value: '<path>',
    help: 'Electron binary for launches that name none',
  },
  artifacts: {
    type: 'string',
    env: 'STAGEGRAPH_ARTIFACTS',
    value: '<dir>',
    fallback: DEFAULT_ARTIFACTS_DIR,
    help: `where sessions keep run logs, command output, screenshots (default ./${DEFAULT_ARTIFACTS_DIR})`,
  },
  'upload-root': {
    type: 'string',
    multiple: true,
    env: 'STAGEGRAPH_UPLOAD_ROOTS',
    value: '<dir>',
    help: 'a folder agents may upload files from; repeatable (default: the working dir)',
  },
  plugin: {
    type: 'string',
    multiple: true,
    env: 'STAGEGRAPH_PLUGINS',
    value: '<module>',
    help: 'load a plugin module (a path or a package) before the schema is built; repeatable, never scanned',
  },
  cluster: {
    type: 'string',
    env: 'STAGEGRAPH_CLUSTER',
    value: '<redis://host:port>',
    secret: true,
    help: 'run as one replica of a cluster sharing this Redis (docs/cluster.md); without it nothing touches Redis',
  },
  'replica-id': {
    type: 'string',
    env: 'STAGEGRAPH_REPLICA_ID',
    value: '<name>',
    help: "this replica's name in the cluster, and the prefix of its session ids (default: the host name)",
  },
  'advertise-url': {
    type: 'string',
    env: 'STAGEGRAPH_ADVERTISE_URL',
    value: '<url>',
    help: 'the GraphQL URL other replicas and clients reach this one at (default: the URL it serves at)',
  },
  'cluster-secret': {
    type: 'string',
    env: 'STAGEGRAPH_CLUSTER_SECRET',
    value: '<secret>',
    secret: true,
    help: 'shared by the replicas for their calls to each other; required when --advertise-url is not loopback',
  },
  'cluster-lease': {
    type: 'string',
    env: 'STAGEGRAPH_CLUSTER_LEASE',
    value: '<ms>',
    help: "how long a replica's lease holds unrenewed before others mark its sessions LOST (default 6000)",
  },
  'cluster-renew': {
    type: 'string',
    env: 'STAGEGRAPH_CLUSTER_RENEW',
    value: '<ms>',
    help: 'how often a replica renews its lease and reaps expired ones (default 2000; at most half the lease)',
  },
  'cluster-stream-bound': {
    type: 'string',
    env: 'STAGEGRAPH_CLUSTER_STREAM_BOUND',
    value: '<n>',
    help: "events each session's stream keeps per topic for other replicas' subscribers and resuming (default 10000)",
  },
  demo: {
    type: 'boolean',
    env: 'STAGEGRAPH_DEMO',
    help: 'launch the fixture app as a demo session, with a demo approver',
  },
});

/**
 * The gateway's environment as the apps it launches get it: without its credentials, so an app under test
 * (which may be anyone's) cannot read a token from its own environment and drive the gateway with it.
 * @param {NodeJS.ProcessEnv} environment
 * @returns {NodeJS.ProcessEnv}
 */
export function withoutGatewaySecrets(environment) {
  const secretNames = new Set(
    Object.values(SERVE_FLAGS)
      .filter((flag) => 'secret' in flag && flag.secret)
      .map((flag) => flag.env),
  );
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !secretNames.has(name)));
}

const BOOLEAN_WORDS = { 1: true, true: true, yes: true, 0: false, false: false, no: false, '': false };

/**
 * The value of one option from its environment variable, or undefined when the variable is unset.
 * @param {ServeFlag} flag
 * @param {string} raw
 * @returns {string | boolean | string[]}
 */
export function fromEnvironment(flag, raw) {
  if (flag.type === 'boolean') {
    const value = BOOLEAN_WORDS[/** @type {keyof typeof BOOLEAN_WORDS} */ (raw.toLowerCase())];
    if (value === undefined)
      throw new RangeError(`${flag.env} must be 1 or 0 (true or false), got "${raw}".`);
    return value;
  }
  return flag.multiple ? raw.split(',').filter((item) => item !== '') : raw;
}

/** `stagegraph serve --help`: every option with its environment variable. */
export function serveUsage() {
  const rows = Object.entries(SERVE_FLAGS).map(([name, flag]) => {
    const value = 'value' in flag ? (flag.value.startsWith('[') ? flag.value : ` ${flag.value}`) : '';
    return [`--${name}${value}`, flag.help, flag.env];
  });
  rows.push(['--help', 'this text', '']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = rows.map(
    ([left, help, env]) =>
      `  ${left.padEnd(width)}${help}${env ? `\n  ${' '.repeat(width)}env: ${env}` : ''}`,
  );
  return `Usage: stagegraph serve [options]

Every option can also be set by its environment variable; the flag wins when both are given.

${lines.join('\n')}

Keeping secrets from launched apps (they run as your user and can read what it can; docs/governance.md):
  stagegraph token create --role approver --file approver.tokens   prints a token once, stores its hash
  stagegraph serve --token-file agent.tokens --approver-token-file approver.tokens
  Token files must be mode 600. A token given on the command line or in STAGEGRAPH_*TOKEN is hashed,
  masked in the visible command line and deleted from the environment, with a warning: /proc/<pid>/environ
  still shows the start-up environment. Launched apps get a PID namespace of their own where unshare works
  (--app-isolation auto); the start-up log says whether they did.

Limits (a request past one is refused before any work, with REQUEST_TOO_LARGE or QUERY_TOO_COMPLEX):
${limitsUsage()}
  Mutations past --mutation-rate answer RATE_LIMITED. Each client's share, what one session may hold
  (network stubs, captures), patterns and what each fault answers: docs/reliability.md.`;
}

export const TOP_USAGE = `Usage: stagegraph <command> [options]

Commands:
  serve        serve the GraphQL gateway and GraphiQL (stagegraph serve --help lists its options)
  query        send one GraphQL operation to a running gateway and print its JSON answer
  watch        hold a subscription on a running gateway and print one JSON line per event
  mcp          serve the tools to an MCP host over stdio (stagegraph mcp --help)
  token        create a token: printed once, only its hash stored (stagegraph token --help)

Options:
  --help       this text
  --version    the version of stagegraph`;
