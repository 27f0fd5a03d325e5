import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  AttachOptions,
  CommandOptions,
  InjectOptions,
} from '../../transports/contract/transport-contract.js';
import { checkProcessInput } from './process-input.js';
import { clamp, LAUNCH_TIMEOUT_DEFAULT_MS, LAUNCH_TIMEOUT_MAX_MS } from './timeouts.js';

/** Attaching answers in well under a second when the endpoint is healthy; a slow one gets this long. */
export const ATTACH_TIMEOUT_DEFAULT_MS = 15_000;
export const ATTACH_HOST_DEFAULT = '127.0.0.1';

/** Absent and null mean "use the default", as everywhere in requests. */
export interface AttachRequest {
  readonly port?: number | null;
  readonly cdpUrl?: string | null;
  readonly host?: string | null;
  readonly titleContains?: string | null;
  readonly urlIncludes?: string | null;
  readonly timeoutMs?: number | null;
}

export interface CommandRequest {
  readonly command: string;
  readonly args?: readonly string[] | null;
  readonly cwd?: string | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly titleContains?: string | null;
  readonly urlIncludes?: string | null;
  readonly timeoutMs?: number | null;
}

export interface InjectRequest {
  readonly pid: number;
  readonly upgrade?: boolean | null;
  readonly timeoutMs?: number | null;
}

function rendererFilter(request: { titleContains?: string | null; urlIncludes?: string | null }) {
  return {
    ...(request.titleContains != null ? { titleContains: request.titleContains } : {}),
    ...(request.urlIncludes != null ? { urlIncludes: request.urlIncludes } : {}),
  };
}

export function attachOptions(request: AttachRequest): AttachOptions {
  return {
    host: request.host ?? ATTACH_HOST_DEFAULT,
    ...(request.port != null ? { port: request.port } : {}),
    ...(request.cdpUrl != null ? { cdpUrl: request.cdpUrl } : {}),
    ...rendererFilter(request),
    timeoutMs: clamp(request.timeoutMs, ATTACH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
  };
}

export function commandOptions(request: CommandRequest, outputDir: string): CommandOptions {
  if (request.command.trim() === '') {
    throw new StagegraphError('BAD_INPUT', 'launchCommand needs a command (an executable path or name).');
  }
  checkProcessInput('launchCommand', request);
  return {
    command: request.command,
    args: request.args ?? [],
    env: Object.fromEntries((request.env ?? []).map(({ name, value }) => [name, value])),
    ...(request.cwd ? { cwd: request.cwd } : {}),
    ...rendererFilter(request),
    timeoutMs: clamp(request.timeoutMs, LAUNCH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
    outputDir,
  };
}

export function injectOptions(request: InjectRequest): InjectOptions {
  if (!Number.isInteger(request.pid) || request.pid <= 1) {
    throw new StagegraphError('BAD_INPUT', `inject needs the pid of a running process, got ${request.pid}.`);
  }
  return {
    pid: request.pid,
    upgrade: request.upgrade ?? true,
    timeoutMs: clamp(request.timeoutMs, ATTACH_TIMEOUT_DEFAULT_MS, 1_000, LAUNCH_TIMEOUT_MAX_MS),
  };
}
