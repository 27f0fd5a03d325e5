import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { LaunchOptions, TransportId } from '../../transports/contract/transport-contract.js';
import { sessionActions } from './next-actions.js';
import { checkProcessInput } from './process-input.js';
import { clamp, LAUNCH_TIMEOUT_DEFAULT_MS, LAUNCH_TIMEOUT_MAX_MS } from './timeouts.js';

/** A launch as clients ask for it; absent and null mean "use the default". */
export interface LaunchRequest {
  readonly transport?: TransportId | null;
  readonly main?: string | null;
  readonly executablePath?: string | null;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly cwd?: string | null;
  readonly timeoutMs?: number | null;
  readonly instrumentNative?: boolean | null;
}

/** What the launch transport is given, or BAD_INPUT for a launch no app can start from. */
export function launchOptions(request: LaunchRequest): LaunchOptions {
  if (!request.main && !request.executablePath) {
    throw new StagegraphError(
      'BAD_INPUT',
      'launch needs `main` (an app entry script or folder) or `executablePath`.',
      {
        nextActions: [sessionActions.transportsWith('LAUNCH')],
      },
    );
  }
  checkProcessInput('launch', request);
  return {
    args: request.args ?? [],
    env: Object.fromEntries((request.env ?? []).map(({ name, value }) => [name, value])),
    timeoutMs: clamp(request.timeoutMs, LAUNCH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
    ...(request.main ? { main: request.main } : {}),
    ...(request.executablePath ? { executablePath: request.executablePath } : {}),
    ...(request.cwd ? { cwd: request.cwd } : {}),
    ...(request.instrumentNative ? { instrumentNative: true } : {}),
  };
}
