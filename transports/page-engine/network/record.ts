import type { Page } from 'playwright-core';
import type { NetworkBody, NetworkCaptureSpec, NetworkRecord } from '../../contract/renderer-control.js';
import { urlGlob } from './url-glob.js';

/** Content types whose bodies are kept as text; anything else is base64, and only when asked for. */
const TEXT_CONTENT_TYPE = /^text\/|json|xml|javascript|x-www-form-urlencoded|graphql/i;

/** One finished (or failed) request hop as a capture source saw it, bodies read only on demand. */
export interface FinishedRequest {
  /** The page it belongs to; undefined for a request without one (a service worker's). */
  readonly page: Page | undefined;
  readonly method: string;
  readonly url: string;
  /** Lower-case, as Playwright reports it: document, fetch, xhr, image, script, ... */
  readonly resourceType: string;
  readonly status: number | null;
  /** Lower-case names, cookies included. */
  readonly requestHeaders: Record<string, string>;
  readonly responseHeaders: Record<string, string>;
  readonly durationMs: number | null;
  readonly failure: string | null;
  /** The Network domain's request id when a raw CDP session saw it; null from Playwright's events. */
  readonly cdpRequestId: string | null;
  readRequestBody(): Promise<Buffer | null>;
  readResponseBody(): Promise<Buffer | null>;
}

/** What a capture source tells about a request before it finishes: enough to decide whether it is wanted. */
export interface RequestIdentity {
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
}

export class ArmedCapture {
  readonly spec: NetworkCaptureSpec;
  readonly #patterns: readonly RegExp[];

  constructor(spec: NetworkCaptureSpec) {
    this.spec = spec;
    this.#patterns = (spec.filter.urlPatterns ?? []).map(urlGlob);
  }

  wants({ method, url, resourceType }: RequestIdentity): boolean {
    const { methods, resourceTypes } = this.spec.filter;
    if (this.#patterns.length > 0 && !this.#patterns.some((pattern) => pattern.test(url))) return false;
    if (methods && methods.length > 0 && !methods.includes(method)) return false;
    return !(resourceTypes && resourceTypes.length > 0 && !resourceTypes.includes(resourceType));
  }
}

/**
 * The record of a finished request for the captures that want it: bodies kept by the most generous of
 * those that asked for them.
 */
export async function captureRecord(
  request: FinishedRequest,
  wanting: readonly ArmedCapture[],
  windowId: string | null,
  stubId: string | null,
): Promise<NetworkRecord> {
  const bodies = wanting.filter(({ spec }) => spec.bodies).map(({ spec }) => spec);
  const keep = (type: string | undefined, read: () => Promise<Buffer | null>) =>
    bodies.length === 0 ? Promise.resolve(null) : bodyOf(bodies, type, read);
  const [requestBody, responseBody] = await Promise.all([
    keep(request.requestHeaders['content-type'], () => request.readRequestBody()),
    keep(request.responseHeaders['content-type'], () => request.readResponseBody()),
  ]);
  return {
    time: new Date(),
    windowId,
    method: request.method,
    url: request.url,
    resourceType: request.resourceType,
    status: request.status,
    requestHeaders: request.requestHeaders,
    responseHeaders: request.responseHeaders,
    durationMs: request.durationMs,
    failure: request.failure,
    stubId,
    requestBody,
    responseBody,
  };
}

/** Text types as text; others as base64 only when a capture asked for binary bodies; cut at the limit. */
async function bodyOf(
  specs: readonly NetworkCaptureSpec[],
  contentType: string | undefined,
  read: () => Promise<Buffer | null>,
): Promise<NetworkBody | null> {
  const text = contentType === undefined || TEXT_CONTENT_TYPE.test(contentType);
  if (!text && !specs.some((spec) => spec.binaryBodies)) return null;
  const bytes = await read().catch(() => null);
  if (!bytes || bytes.length === 0) return null;
  const limit = Math.max(...specs.map((spec) => spec.maxBodyBytes));
  const kept = bytes.subarray(0, limit);
  return {
    encoding: text ? 'TEXT' : 'BASE64',
    data: kept.toString(text ? 'utf8' : 'base64'),
    size: bytes.length,
    truncated: kept.length < bytes.length,
  };
}

/** Header names lower-cased (as Playwright's allHeaders gives them), repeated ones joined by newlines. */
export function lowerCaseHeaders(
  headers: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const key = name.toLowerCase();
    const text = String(value);
    result[key] = key in result ? `${result[key]}\n${text}` : text;
  }
  return result;
}
