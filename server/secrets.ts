import type { TokenGrant, TokenRole } from '../domain/governance/clients/client-identity.js';
import { tokenGrants } from '../domain/governance/clients/client-identity.js';
import type { ServeConfig } from './config.js';
import { SERVE_FLAGS, type ServeFlag } from './serve-flags.js';
import { tokenDigest } from './token-record.js';

/** What a scrubbed secret reads as on the rewritten command line. */
const MASK = '***';

const CLEAR_TOKEN_FLAGS: readonly [name: string, role: TokenRole][] = [
  ['token', 'agent'],
  ['approver-token', 'approver'],
  ['observer-token', 'observer'],
];

/**
 * Keeps the gateway's secrets away from the processes it starts, as far as one process can:
 * - clear tokens (`--token`, `--approver-token`, `--observer-token` and their variables) become digests, so
 *   the configuration the gateway keeps holds no clear token (the strings themselves are left to the
 *   garbage collector: JavaScript cannot wipe them);
 * - the command line is rewritten with each secret masked (`process.title` writes over the argv area,
 *   which is what /proc/<pid>/cmdline reads on Linux), and `process.argv` with it;
 * - every secret variable (tokens and token-file paths) is deleted from `process.env`, so no child
 *   inherits it.
 * What it cannot do: /proc/<pid>/environ reads the environment block the kernel gave the process at exec,
 * which deleting a variable does not touch; and until this runs (the first second or so of start-up) the
 * command line shows the token. Only a process that cannot see the gateway's pid is safe from both:
 * launched apps get their own PID namespace where the machine allows it (transports/process/isolation.ts).
 * Returns the configuration with its clear tokens hashed, and a warning per clear token that was given.
 */
export function secureServeSecrets(
  config: ServeConfig,
  argv: readonly string[],
  environment: NodeJS.ProcessEnv = process.env,
): { config: ServeConfig; warnings: string[] } {
  const warnings: string[] = [];
  for (const [name] of CLEAR_TOKEN_FLAGS) {
    const flag: ServeFlag = SERVE_FLAGS[name as keyof typeof SERVE_FLAGS];
    if (argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`)))
      warnings.push(
        `warning: --${name} on the command line is readable by every process of this user (/proc/<pid>/cmdline, ps) until the gateway masks it at start; use --${name}-file with a hashed token (stagegraph token create).`,
      );
    else if (environment[flag.env] !== undefined)
      warnings.push(
        `warning: ${flag.env} stays readable in /proc/<pid>/environ by every process of this user for as long as the gateway runs (deleting it from the environment does not erase the block the kernel keeps); use --${name}-file with a hashed token (stagegraph token create).`,
      );
  }
  const hashed: TokenGrant[] = CLEAR_TOKEN_FLAGS.flatMap(([, role]) =>
    tokenGrants(clearToken(config, role), role).map((grant) => ({
      digest: tokenDigest(grant.token ?? ''),
      role,
    })),
  );
  scrubProcess(environment);
  return {
    config: {
      ...config,
      token: undefined,
      approverToken: undefined,
      observerToken: undefined,
      hashedTokens: [...(config.hashedTokens ?? []), ...hashed],
    },
    warnings,
  };
}

function clearToken(config: ServeConfig, role: TokenRole): string | undefined {
  return { agent: config.token, approver: config.approverToken, observer: config.observerToken }[role];
}

/** Masks secret flag values in the visible command line and removes secret variables from the environment. */
function scrubProcess(environment: NodeJS.ProcessEnv): void {
  const secretFlags = Object.entries(SERVE_FLAGS)
    .filter(([, flag]) => 'secret' in flag && flag.secret)
    .map(([name]) => `--${name}`);
  const masked = maskSecretArguments(process.argv, secretFlags);
  if (masked.some((arg, index) => arg !== process.argv[index])) {
    process.argv.splice(0, process.argv.length, ...masked);
    // The title replaces the whole argv area (truncated to its length); argv0 is the short name node was
    // started by, so the masked line fits where the original did.
    process.title = [process.argv0, ...masked.slice(1)].join(' ');
  }
  for (const flag of Object.values(SERVE_FLAGS) as ServeFlag[]) if (flag.secret) delete environment[flag.env];
}

/** `--token X` and `--token=X` (any secret flag) with the value replaced by MASK. */
export function maskSecretArguments(argv: readonly string[], secretFlags: readonly string[]): string[] {
  return argv.map((arg, index) => {
    if (index > 0 && secretFlags.includes(argv[index - 1] ?? '')) return MASK;
    const flag = secretFlags.find((name) => arg.startsWith(`${name}=`));
    return flag === undefined ? arg : `${flag}=${MASK}`;
  });
}
