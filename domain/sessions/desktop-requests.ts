import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  DesktopAttachOptions,
  DesktopLaunchOptions,
} from '../../transports/contract/transport-contract.js';
import { ATTACH_TIMEOUT_DEFAULT_MS } from './attach-requests.js';
import { checkProcessInput } from './process-input.js';
import { clamp, LAUNCH_TIMEOUT_DEFAULT_MS, LAUNCH_TIMEOUT_MAX_MS } from './timeouts.js';

/** A desktop launch as clients ask for it; absent and null mean "use the default". */
export interface DesktopLaunchRequest {
  readonly command: string;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly cwd?: string | null;
  readonly timeoutMs?: number | null;
}

/** Which app of the current desktop to attach to: exactly one of `pid` and `appName`. */
export interface DesktopAttachRequest {
  readonly pid?: number | null;
  readonly appName?: string | null;
  readonly timeoutMs?: number | null;
}

export function desktopLaunchOptions(request: DesktopLaunchRequest, outputDir: string): DesktopLaunchOptions {
  if (request.command.trim() === '') {
    throw new StagegraphError('BAD_INPUT', 'launchDesktop needs a command (an executable path or name).');
  }
  checkProcessInput('launchDesktop', request);
  return {
    command: request.command,
    args: request.args ?? [],
    env: Object.fromEntries((request.env ?? []).map(({ name, value }) => [name, value])),
    ...(request.cwd ? { cwd: request.cwd } : {}),
    timeoutMs: clamp(request.timeoutMs, LAUNCH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
    outputDir,
  };
}

export function desktopAttachOptions(request: DesktopAttachRequest): DesktopAttachOptions {
  const byPid = request.pid != null;
  const byName = request.appName != null && request.appName !== '';
  if (byPid === byName) {
    throw new StagegraphError('BAD_INPUT', 'attachDesktop needs exactly one of `pid` and `appName`.');
  }
  if (byPid && (!Number.isInteger(request.pid) || (request.pid ?? 0) <= 1)) {
    throw new StagegraphError(
      'BAD_INPUT',
      `attachDesktop needs the pid of a running process, got ${request.pid}.`,
    );
  }
  return {
    ...(byPid ? { pid: request.pid as number } : { appName: request.appName as string }),
    timeoutMs: clamp(request.timeoutMs, ATTACH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
  };
}
