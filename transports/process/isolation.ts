import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * Whether launched apps are started where they cannot see the gateway's process: `auto` (the default of
 * `stagegraph serve`) isolates them where this machine allows it and says so at start; `required` refuses
 * to start the gateway where it does not; `off` starts them as plain children.
 */
export type AppIsolationRequest = 'auto' | 'required' | 'off';

export interface AppIsolation {
  /** `pid-namespace`: every launched app gets a PID namespace and a /proc of its own. */
  readonly mode: 'pid-namespace' | 'none';
  /** The words that start a command isolated, up to and including the `--` before the command. */
  readonly prefix: readonly string[];
  /** One line for the start-up log: what launched apps can and cannot see, and why. */
  readonly note: string;
}

/** How long one probe of a namespace tool may take; a loaded machine starts `true` within a second. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * `unshare` (util-linux) gives the app a new PID namespace with its own /proc mounted, so /proc lists only
 * the app's own processes: the gateway's pid, command line, environment and descriptors are not there to
 * read. Inside it a second `unshare --fork` is PID 1 and the app PID 2, because the kernel drops any signal
 * a PID 1 has no handler for — an app that is PID 1 would ignore the gateway's SIGINT and SIGTERM and be
 * stopped only by SIGKILL. `--kill-child` ends the app if its unshare is killed. As root (or with
 * CAP_SYS_ADMIN) the namespace needs nothing more; as another user it needs a user namespace mapped to that
 * same user, which the kernel may forbid (then the next candidate, or none). `--mount-proc` implies a mount
 * namespace of the app's own, holding a copy of the host's mounts; `--propagation slave` lets the host's
 * later unmounts reach it where the host's mounts are shared (systemd's default), so an app does not keep a
 * disk the operator unmounts in use. Where they are private (many containers) the copy stays until the app
 * ends.
 */
const INNER_INIT = ['unshare', '--fork', '--kill-child', '--'];
const NAMESPACE = ['--pid', '--fork', '--mount-proc', '--propagation', 'slave', '--kill-child', '--'];
const CANDIDATES: readonly (readonly string[])[] = [
  ['unshare', ...NAMESPACE, ...INNER_INIT],
  ['unshare', '--user', '--map-current-user', ...NAMESPACE, ...INNER_INIT],
];

const NONE_NOTE =
  "launched apps are NOT isolated: they run as this user and can read this gateway's /proc entries (command line, environment); keep tokens in hashed token files";

let probed: AppIsolation | undefined;

/** Probes once per process which candidate works here; `off` and failures yield mode `none`. */
export function appIsolation(request: AppIsolationRequest): AppIsolation {
  if (request === 'off') return { mode: 'none', prefix: [], note: `${NONE_NOTE} (--app-isolation off).` };
  probed ??= probe();
  if (request === 'required' && probed.mode === 'none')
    throw new StagegraphError('BAD_INPUT', `--app-isolation required, but ${probed.note}`, {
      hint: 'Install util-linux (unshare) and run as root or where user namespaces are allowed (sysctl user.max_user_namespaces > 0, kernel.unprivileged_userns_clone=1), or start with --app-isolation auto.',
    });
  return probed;
}

function probe(): AppIsolation {
  const failures: string[] = [];
  for (const candidate of CANDIDATES) {
    const [command, ...args] = candidate;
    const result = spawnSync(command as string, [...args, 'true'], {
      timeout: PROBE_TIMEOUT_MS,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (result.status === 0)
      return {
        mode: 'pid-namespace',
        prefix: candidate,
        note: `launched apps are isolated: each runs in a PID namespace of its own (${candidate.slice(0, candidate.indexOf('--')).join(' ')}) and cannot see this gateway's process.`,
      };
    failures.push(
      `${candidate.slice(0, candidate.indexOf('--')).join(' ')}: ${result.error?.message ?? (result.stderr.toString().trim() || `exit ${result.status}`)}`,
    );
  }
  return { mode: 'none', prefix: [], note: `${NONE_NOTE} (no PID namespace here — ${failures.join('; ')}).` };
}

/**
 * The command and arguments that start `command` isolated. A command that cannot be found is left alone,
 * so spawning it fails with its own ENOENT (LAUNCH_FAILED naming it) rather than the namespace tool's exit.
 */
export function isolatedCommand(
  isolation: AppIsolation,
  command: string,
  args: readonly string[],
  environment: NodeJS.ProcessEnv,
): { command: string; args: string[] } {
  if (isolation.mode === 'none' || !findable(command, environment)) return { command, args: [...args] };
  const [tool, ...words] = isolation.prefix;
  return { command: tool as string, args: [...words, command, ...args] };
}

/** The launcher Playwright's Electron launch is pointed at when apps are isolated (see its header). */
export const ISOLATED_LAUNCHER = fileURLToPath(new URL('./isolated-launcher.sh', import.meta.url));

/**
 * Playwright's `_electron.launch` puts its own switches before the app's, so the executable and the
 * isolation words reach ISOLATED_LAUNCHER through these variables, which it removes before the app starts.
 */
export function isolatedLaunch(
  isolation: AppIsolation,
  executablePath: string,
): { executablePath: string; env: Record<string, string> } {
  if (isolation.mode === 'none') return { executablePath, env: {} };
  return {
    executablePath: ISOLATED_LAUNCHER,
    env: {
      STAGEGRAPH_ISOLATED_EXECUTABLE: executablePath,
      // setsid: the app leads a process group of its own, so the session's pid is the app's main process
      // and its group, as without isolation (stop's SIGINT, a SIGSTOP of the main process, group reaping).
      STAGEGRAPH_ISOLATION_PREFIX: [...isolation.prefix, 'setsid'].join(' '),
    },
  };
}

/**
 * The app a launch started: the process itself, or, when it was started isolated, the process below its
 * chain of `unshare`s — each unshare's first child: the inner one, PID 1 of the namespace, also adopts the
 * app's orphans, which the kernel lists after it. Read once the app runs (its DevTools port answered).
 */
export function appBelowIsolation(pid: number): number {
  let current = pid;
  for (let depth = 0; depth < MAX_WRAPPER_DEPTH && commandName(current) === 'unshare'; depth += 1) {
    const first = Number(readProc(`/proc/${current}/task/${current}/children`).trim().split(/\s+/)[0]);
    if (!(first > 0)) break;
    current = first;
  }
  return current;
}

/**
 * Every pid `pid` has, ours first, then one per nested PID namespace (the NSpid line of its status): what
 * a process that names itself by `process.pid` may answer.
 */
export function namespacePids(pid: number): number[] {
  const line = /^NSpid:\s*(.*)$/m.exec(readProc(`/proc/${pid}/status`))?.[1];
  return line ? line.trim().split(/\s+/).map(Number) : [pid];
}

/** The unshares between a launch and its app: outer (namespace) and inner (PID 1). */
const MAX_WRAPPER_DEPTH = 2;

function commandName(pid: number): string {
  return readProc(`/proc/${pid}/comm`).trim();
}

function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function findable(command: string, environment: NodeJS.ProcessEnv): boolean {
  const paths = command.includes('/')
    ? [command]
    : (environment.PATH ?? '').split(delimiter).map((folder) => join(folder, command));
  return paths.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
