import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { DebuggableApp } from '../contract/transport-contract.js';
import { TransportError } from '../contract/transport-error.js';
import { transportActions } from '../contract/transport-next-actions.js';
import { isLoopbackHost } from '../process/loopback.js';
import { listenerOf } from '../process/proc-sockets.js';
import { DevtoolsHttpError, getDevtoolsJson } from '../protocol/devtools-http.js';

/** A port that answers nothing within this is reported absent by `discover`, not waited on. */
export const DISCOVER_TIMEOUT_MS = 1_500;
/** `discover` probes at most this many ports per call: it is a look-around, not a port scanner. */
export const MAX_DISCOVER_PORTS = 64;

/** A browser's DevTools endpoint as its /json/version describes it. */
export interface BrowserEndpoint {
  readonly host: string;
  readonly port: number;
  readonly webSocketDebuggerUrl: string;
  /** product/version, e.g. `HeadlessChrome/140.0.7339.185` or `Chrome/138.0…` for Electron. */
  readonly browser: string;
  readonly protocolVersion: string;
  readonly userAgent: string;
  readonly v8: string;
}

export interface EndpointAddress {
  readonly host: string;
  readonly port: number;
  /** A browser websocket URL given outright, used when /json/version is not served. */
  readonly browserWsUrl?: string;
}

/** Where an attach points: exactly one of a port (on `host`) or a CDP URL. */
export function endpointAddress(options: {
  readonly port?: number | undefined;
  readonly cdpUrl?: string | undefined;
  readonly host: string;
}): EndpointAddress {
  if ((options.port === undefined) === (options.cdpUrl === undefined)) {
    throw new StagegraphError('BAD_INPUT', 'attach needs exactly one of `port` and `cdpUrl`.', {
      nextActions: ['mutation { attach(input: { port: 9222 }) { id status windows { id title url } } }'],
    });
  }
  if (options.port !== undefined) return { host: options.host, port: validPort(options.port) };
  let url: URL;
  try {
    url = new URL(options.cdpUrl as string);
  } catch {
    throw new StagegraphError('BAD_INPUT', `cdpUrl is not a URL: "${options.cdpUrl}".`);
  }
  if (!['http:', 'ws:'].includes(url.protocol) || url.port === '') {
    throw new StagegraphError(
      'BAD_INPUT',
      'cdpUrl must be http://host:port or a ws://host:port/devtools/browser/… URL, with its port.',
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const direct = url.protocol === 'ws:' && url.pathname.startsWith('/devtools/browser/');
  return { host, port: validPort(Number(url.port)), ...(direct ? { browserWsUrl: url.href } : {}) };
}

function validPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new StagegraphError('BAD_INPUT', `A port is an integer 1..65535, got ${port}.`);
  }
  return port;
}

/** DevTools endpoints give full control of the app: only loopback, unless the server says otherwise. */
export function assertHostAllowed(host: string, allowRemote: boolean): void {
  if (allowRemote || isLoopbackHost(host)) return;
  throw new StagegraphError(
    'HOST_NOT_ALLOWED',
    `Refusing to attach to ${host}: a DevTools endpoint gives whoever reaches it full control of the app.`,
  );
}

/** The line Chromium and Electron print to stderr once their DevTools server listens. */
const LISTENING = /DevTools listening on ws:\/\/(\[[^\]]+\]|[^:/\s]+):(\d+)\//;

/**
 * Where a command's app says its DevTools server listens on `port`, from its stderr: Chromium binds
 * 127.0.0.1 and falls back to [::1] when another process holds that port on 127.0.0.1. Null until it says
 * so, or when it names another port or a host that is not loopback.
 */
export function announcedHost(stderr: string, port: number): string | null {
  const match = LISTENING.exec(stderr);
  if (!match || Number(match[2]) !== port) return null;
  const host = (match[1] as string).replace(/^\[|\]$/g, '');
  return isLoopbackHost(host) ? host : null;
}

/** Reads /json/version; ATTACH_FAILED when nothing (or no browser) answers, CDP_TIMEOUT when it hangs. */
export async function readBrowserEndpoint(
  address: EndpointAddress,
  timeoutMs: number,
): Promise<BrowserEndpoint> {
  const where = `${address.host}:${address.port}`;
  let answer: unknown;
  try {
    answer = await getDevtoolsJson(address.host, address.port, '/json/version', timeoutMs);
  } catch (error) {
    if (error instanceof DevtoolsHttpError && error.timedOut) {
      throw new TransportError('timeout', `${where} did not answer /json/version within ${timeoutMs} ms.`);
    }
    if (address.browserWsUrl) return bareEndpoint(address);
    throw new TransportError(
      'unreachable',
      `Nothing answers the DevTools protocol at ${where}: ${error instanceof Error ? error.message : String(error)}.`,
      {
        nextActions: [transportActions.discover([address.port])],
        cause: error,
      },
    );
  }
  const version = stringFields(answer);
  const ws = version.webSocketDebuggerUrl;
  if (!ws || !URL.canParse(ws)) {
    // A Node inspector answers /json/version too, but has no browser endpoint.
    throw new StagegraphError(
      'ATTACH_FAILED',
      `${where} is ${version.Browser || 'a DevTools endpoint'} without a browser endpoint (a Node inspector?).`,
      {
        hint: "Attach to the app's --remote-debugging-port, or use `inject(input: { pid })` for a main process.",
      },
    );
  }
  return {
    host: address.host,
    port: address.port,
    webSocketDebuggerUrl: reachable(ws, address),
    browser: version.Browser ?? '',
    protocolVersion: version['Protocol-Version'] ?? '',
    userAgent: version['User-Agent'] ?? '',
    v8: version['V8-Version'] ?? '',
  };
}

/** The browser names the endpoint by the Host it was asked with; keep the address the caller gave. */
function reachable(ws: string, address: EndpointAddress): string {
  const url = new URL(ws);
  url.hostname = address.host.includes(':') ? `[${address.host}]` : address.host;
  url.port = String(address.port);
  return url.href;
}

function bareEndpoint(address: EndpointAddress): BrowserEndpoint {
  return {
    host: address.host,
    port: address.port,
    webSocketDebuggerUrl: address.browserWsUrl as string,
    browser: '',
    protocolVersion: '',
    userAgent: '',
    v8: '',
  };
}

/** The string fields of a JSON answer: whatever else a port answered with is not relied on. */
function stringFields(answer: unknown): Record<string, string | undefined> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return {};
  return Object.fromEntries(
    Object.entries(answer).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Lists the debuggable browsers and apps answering on the given loopback ports; silent ports are left out. */
export async function discover(ports: readonly number[], host: string): Promise<DebuggableApp[]> {
  if (ports.length === 0 || ports.length > MAX_DISCOVER_PORTS) {
    throw new StagegraphError('BAD_INPUT', `discover takes 1..${MAX_DISCOVER_PORTS} ports.`);
  }
  const found = await Promise.all(
    [...new Set(ports.map(validPort))].map(async (port): Promise<DebuggableApp | null> => {
      try {
        const endpoint = await readBrowserEndpoint({ host, port }, DISCOVER_TIMEOUT_MS);
        const targets = targetsOf(
          await getDevtoolsJson(host, port, '/json/list', DISCOVER_TIMEOUT_MS).catch(() => []),
        );
        return {
          port,
          browser: endpoint.browser,
          protocolVersion: endpoint.protocolVersion,
          webSocketDebuggerUrl: endpoint.webSocketDebuggerUrl,
          pid: isLoopbackHost(host) ? listenerOf(port) : null,
          targets,
        };
      } catch {
        return null;
      }
    }),
  );
  return found.filter((app): app is DebuggableApp => app !== null);
}

/** The targets of a /json/list answer, each with string fields; anything else in it is left out. */
function targetsOf(answer: unknown): { id: string; type: string; title: string; url: string }[] {
  if (!Array.isArray(answer)) return [];
  return answer.map(stringFields).map((target) => ({
    id: target.id ?? '',
    type: target.type ?? '',
    title: target.title ?? '',
    url: target.url ?? '',
  }));
}
