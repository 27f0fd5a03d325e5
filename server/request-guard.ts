import type { ErrorCode } from '../errors/registry.js';
import { isLoopbackHost } from '../transports/process/loopback.js';
import { DEFAULT_MAX_REQUEST_BYTES } from './request-limits.js';

/**
 * Who may reach the gateway from a browser. A page the user happens to visit can send requests to
 * loopback too, so every HTTP request and WebSocket upgrade passes `guardRequest` before yoga, the
 * artifacts route or graphql-ws sees it. Non-browser clients (agents, curl) send no Origin and no
 * Sec-Fetch-* headers and pass as long as their Host is one of ours.
 */
export interface GuardPolicy {
  /** Origins besides the gateway's own that browsers may call from (`--allow-origin`), e.g. `http://localhost:3000`. */
  readonly allowedOrigins: readonly string[];
  /** Host names besides loopback ones that the Host header may carry (`--allowed-host`, a non-loopback bind). */
  readonly allowedHosts: readonly string[];
  /** The most bytes a body, a query string or a WebSocket message may carry (`--max-request-bytes`). */
  readonly maxRequestBytes: number;
}

export interface GuardedRequest {
  readonly method: string;
  /** The request target as sent (path and query string); its length is held to the request limit. */
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * True where the handler reads no body (the WebSocket upgrade, the read-only artifacts route): only
   * Host and Origin are checked, and the handler answers a wrong method itself.
   */
  readonly readsNoBody?: boolean;
}

export interface Refusal {
  readonly status: number;
  readonly code: Extract<
    ErrorCode,
    'FORBIDDEN_ORIGIN' | 'FORBIDDEN_HOST' | 'UNSUPPORTED_CONTENT_TYPE' | 'REQUEST_TOO_LARGE' | 'BAD_REQUEST'
  >;
  readonly message: string;
}

/**
 * The only body accepted: JSON, which a browser cannot send cross-origin without a preflight. (Yoga reads
 * no other GraphQL body type we need; `application/graphql-response+json` is what it answers with.)
 */
const BODY_TYPES = new Set(['application/json']);
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sec-Fetch-Site values that mean the request was started by a page of another origin. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);
/**
 * Room for the request line's method and version and for the headers themselves (Node's own default
 * limit for all of them), on top of the query string the request limit allows.
 */
const HEADER_ALLOWANCE_BYTES = 16 * 1024;
/** Only a single non-negative integer is a Content-Length; anything else is how request smuggling starts. */
const CONTENT_LENGTH = /^\d{1,15}$/;

/** Null when the request may proceed; otherwise why it is refused. Pure: headers in, verdict out. */
export function guardRequest(request: GuardedRequest, policy: GuardPolicy): Refusal | null {
  const host = header(request.headers, 'host');
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (hostname === undefined || !hostAllowed(hostname, policy)) {
    return {
      status: 403,
      code: 'FORBIDDEN_HOST',
      message: `The Host header ${JSON.stringify(host ?? '')} is not a loopback name or a configured host.`,
    };
  }
  const origin = header(request.headers, 'origin');
  const site = header(request.headers, 'sec-fetch-site');
  if (origin !== undefined) {
    // `null` (sandboxed frames, file: pages, redirects) is never our own origin.
    const own = origin === `http://${host}` || origin === `https://${host}`;
    if (!own && !policy.allowedOrigins.includes(origin)) {
      return {
        status: 403,
        code: 'FORBIDDEN_ORIGIN',
        message: `Requests from origin ${origin} are refused.`,
      };
    }
  } else if (site !== undefined && FOREIGN_SITES.has(site) && !topLevelPageLoad(request)) {
    // <img>, <script>, <link> and no-cors fetches of another site carry no Origin; Sec-Fetch-Site tells.
    return {
      status: 403,
      code: 'FORBIDDEN_ORIGIN',
      message: `A ${site} request without an Origin is refused.`,
    };
  }
  const tooLarge = sizeRefusal(request, policy.maxRequestBytes);
  if (tooLarge) return tooLarge;
  if (!request.readsNoBody && !BODYLESS.has(request.method.toUpperCase())) {
    const type = (header(request.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!BODY_TYPES.has(type)) {
      return {
        status: 415,
        code: 'UNSUPPORTED_CONTENT_TYPE',
        message: `A ${request.method} body must be application/json, got ${JSON.stringify(type)}.`,
      };
    }
  }
  return null;
}

/**
 * Refuses from the headers alone what is over the request limit: a declared body or a query string. A
 * body sent without a length (chunked) is counted as it is read, by each route's reader, to the same limit.
 */
function sizeRefusal(request: GuardedRequest, limit: number): Refusal | null {
  const target = request.url ?? '';
  if (target.length > limit)
    return {
      status: 414,
      code: 'REQUEST_TOO_LARGE',
      message: `The request URL is ${target.length} bytes, over the limit of ${limit} (--max-request-bytes); POST the operation as JSON.`,
    };
  const declared = header(request.headers, 'content-length');
  if (declared === undefined) return null;
  if (!CONTENT_LENGTH.test(declared))
    return { status: 400, code: 'BAD_REQUEST', message: 'The Content-Length header is not a length.' };
  if (Number(declared) > limit)
    return {
      status: 413,
      code: 'REQUEST_TOO_LARGE',
      message: `The request body is ${declared} bytes, over the limit of ${limit} (--max-request-bytes).`,
    };
  return null;
}

/**
 * How long Node lets a request line and its headers be: the request limit for its query string, plus
 * Node's default for the rest. Past it Node answers 431 itself (refusal.ts words that answer).
 */
export function maxHeaderBytes(policy: GuardPolicy): number {
  return policy.maxRequestBytes + HEADER_ALLOWANCE_BYTES;
}

/**
 * A person following a link to GraphiQL or an artifact: the page opens in its own tab, where the linking
 * site cannot read it, and a GET never runs a mutation (yoga refuses those with 405).
 */
function topLevelPageLoad(request: GuardedRequest): boolean {
  return (
    request.method.toUpperCase() === 'GET' &&
    header(request.headers, 'sec-fetch-mode') === 'navigate' &&
    header(request.headers, 'sec-fetch-dest') === 'document'
  );
}

/** Any port: DNS rebinding changes the name, not the port, and a proxy may forward from another port. */
function hostAllowed(hostname: string, policy: GuardPolicy): boolean {
  return (
    isLoopbackName(hostname) || policy.allowedHosts.some((allowed) => allowed.toLowerCase() === hostname)
  );
}

/** A Host header's name for this machine: browsers resolve every `*.localhost` name to loopback too. */
function isLoopbackName(hostname: string): boolean {
  return isLoopbackHost(hostname) || hostname.endsWith('.localhost');
}

/** `example.com:80` → `example.com`, `[::1]:4700` → `::1`; undefined for anything malformed. */
export function hostnameOf(host: string): string | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]\s/@]+))(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match) return undefined;
  return (match[1] ?? match[2] ?? '').toLowerCase();
}

function header(headers: GuardedRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The configured origins and hosts; a bind to a named address (not a wildcard) answers to that name too. */
export function guardPolicy(config: {
  readonly host: string;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly allowedHosts?: readonly string[] | undefined;
  readonly maxRequestBytes?: number | undefined;
}): GuardPolicy {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  return {
    allowedOrigins: config.allowedOrigins ?? [],
    allowedHosts: [...(config.allowedHosts ?? []), ...(wildcard ? [] : [config.host.toLowerCase()])],
    maxRequestBytes: config.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
  };
}
