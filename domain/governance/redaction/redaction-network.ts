import type { NetworkBody, NetworkRecord } from '../../../transports/contract/renderer-control.js';
import { REDACTED_VALUE } from '../../../transports/contract/window-driver.js';
import type { Redactor } from './redaction.js';

/**
 * Names of headers, query parameters and body keys whose values are secrets whatever they look like.
 * Protocols name what carries a credential after what it is: `Authorization`, `Proxy-Authorization`,
 * `Cookie`, `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `X-CSRF-Token`, `session_token`, `X-Amz-Signature`,
 * an Azure SAS `sig`, a form's `password` or a payment's `cvv`. A name holding one of these fragments
 * carries a secret far more often than not, and hiding a harmless one (`keyboard`) costs a reader little:
 * an agent that needs it in clear asks with `reveal: true`.
 */
export const SECRET_NAME =
  /auth|token|secret|key|session|passw|pwd|^pass$|^pin$|signature|^sig$|cookie|credential|csrf|xsrf|cvv|cvc/i;

/** Headers whose value is a URL: its query and fragment are redacted as a request's own URL is. */
const URL_HEADERS = new Set(['referer', 'location', 'content-location']);

/**
 * A URL longer than this is cut before it is read (a `data:` URL can be megabytes): the head shows what it
 * was, the count says how much was left out.
 */
export const MAX_REDACTED_URL_LENGTH = 16_384;
/**
 * A body longer than this is not read at all, only named: the capture's clamp (1 MiB per body) keeps
 * every kept body under it, so this is the size checked before any pass, whoever built the record.
 */
export const MAX_REDACTED_BODY_CHARS = 1024 * 1024;
/**
 * JSON nested deeper than this is cut: the walk recurses, and a megabyte of `[[[[` must not exhaust the
 * stack. Real API payloads nest a dozen levels.
 */
export const MAX_BODY_DEPTH = 64;

/** One header as the schema lists it, after redaction. */
export interface ShownHeader {
  readonly name: string;
  readonly value: string;
}

/** What every reader sees of a recorded request unless an agent reveals it. */
export interface RedactedNetworkParts {
  readonly url: string;
  readonly requestHeaders: readonly ShownHeader[];
  readonly responseHeaders: readonly ShownHeader[];
  readonly requestBody: NetworkBody | null;
  readonly responseBody: NetworkBody | null;
}

/**
 * Each record's redacted parts, made once however many readers and subscribers ask: the ring holds the
 * record as captured, so an agent can still reveal it; everything else reads these.
 */
const views = new WeakMap<
  NetworkRecord,
  { readonly redactor: Redactor; readonly parts: RedactedNetworkParts }
>();

export function redactedNetworkParts(record: NetworkRecord, redactor: Redactor): RedactedNetworkParts {
  const cached = views.get(record);
  if (cached?.redactor === redactor) return cached.parts;
  const parts: RedactedNetworkParts = {
    url: redactUrl(record.url, redactor),
    requestHeaders: redactHeaders(record.requestHeaders, redactor),
    responseHeaders: redactHeaders(record.responseHeaders, redactor),
    requestBody: redactBody(record.requestBody, contentType(record.requestHeaders), redactor),
    responseBody: redactBody(record.responseBody, contentType(record.responseHeaders), redactor),
  };
  views.set(record, { redactor, parts });
  return parts;
}

/** The headers as recorded, in clear: what a reveal answers. */
export function clearHeaders(headers: Readonly<Record<string, string>>): ShownHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** Secret-named headers hidden whole; URL-valued ones redacted as URLs; the rest scrubbed by pattern. */
export function redactHeaders(headers: Readonly<Record<string, string>>, redactor: Redactor): ShownHeader[] {
  return Object.entries(headers).map(([name, value]) => {
    const lower = name.toLowerCase();
    if (SECRET_NAME.test(lower)) return { name, value: REDACTED_VALUE };
    if (URL_HEADERS.has(lower)) return { name, value: redactUrl(value, redactor) };
    return { name, value: redactor.redactText(value) };
  });
}

/**
 * A URL with its password, and the values of secret-named query and fragment parameters, hidden; the path
 * and the other values scrubbed by pattern (a JWT or an e-mail address). Cut first when too long.
 */
export function redactUrl(url: string, redactor: Redactor): string {
  const cut = url.length > MAX_REDACTED_URL_LENGTH;
  const head = cut ? url.slice(0, MAX_REDACTED_URL_LENGTH) : url;
  const hash = head.indexOf('#');
  const beforeHash = hash < 0 ? head : head.slice(0, hash);
  const question = beforeHash.indexOf('?');
  const base = question < 0 ? beforeHash : beforeHash.slice(0, question);
  let out: string = redactor.redactWhole(withoutPassword(base));
  if (question >= 0) out += `?${redactPairs(beforeHash.slice(question + 1), redactor)}`;
  if (hash >= 0) out += `#${redactPairs(head.slice(hash + 1), redactor)}`;
  return cut ? `${out}…[+${url.length - MAX_REDACTED_URL_LENGTH} chars]` : out;
}

/** `user:password@` becomes `user:[redacted]@`; the scheme is anchored, so this reads the head once. */
function withoutPassword(base: string): string {
  return base.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/, `$1:${REDACTED_VALUE}@`);
}

/**
 * `a=1&password=x` becomes `a=1&password=[redacted]`: pairs split on `&`, names compared decoded; other
 * values scrubbed by pattern as decoded (`4111+1111+…` is a card number), shown as sent when clean.
 */
export function redactPairs(text: string, redactor: Redactor): string {
  return text
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return scrubbedPart(pair, redactor);
      const name = pair.slice(0, equals);
      if (SECRET_NAME.test(decoded(name))) return `${name}=${REDACTED_VALUE}`;
      return `${scrubbedPart(name, redactor)}=${scrubbedPart(pair.slice(equals + 1), redactor)}`;
    })
    .join('&');
}

function scrubbedPart(raw: string, redactor: Redactor): string {
  const plain = decoded(raw);
  const scrubbed = redactor.redactWhole(plain);
  return scrubbed === plain ? raw : scrubbed;
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

function contentType(headers: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'content-type') return value.toLowerCase();
  return '';
}

/**
 * A body as readers see it: JSON (by content type, or a text body that parses as JSON) with secret-named
 * keys and pattern matches hidden; form-encoded with secret-named fields hidden; other text scrubbed by
 * pattern; multipart and binary bodies, JSON that does not parse (a truncated one), and anything over
 * the size bound named, not shown.
 */
export function redactBody(body: NetworkBody | null, type: string, redactor: Redactor): NetworkBody | null {
  if (body === null) return null;
  if (body.encoding !== 'TEXT') return elided(body, 'binary body');
  if (body.data.length > MAX_REDACTED_BODY_CHARS) return elided(body, 'body over the redaction bound');
  if (type.startsWith('multipart/')) return elided(body, 'multipart body');
  if (type.includes('x-www-form-urlencoded')) return { ...body, data: redactPairs(body.data, redactor) };
  const json = type.includes('json') || /^\s*[[{]/.test(body.data.slice(0, 64));
  if (json) {
    const redacted = redactJsonText(body.data, redactor);
    if (redacted !== null) return { ...body, data: redacted };
    if (type.includes('json')) return elided(body, 'JSON body that does not parse');
  }
  return { ...body, data: redactor.redactWhole(body.data) };
}

function elided(body: NetworkBody, what: string): NetworkBody {
  return {
    encoding: 'TEXT',
    data: `[REDACTED:${what}, ${body.size} bytes]`,
    size: body.size,
    truncated: body.truncated,
  };
}

/** The JSON text with secrets hidden, as it was when nothing was; null when it does not parse. */
function redactJsonText(text: string, redactor: Redactor): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const state = { changed: false };
  const redacted = redactJson(parsed, 0, redactor, state);
  return state.changed ? JSON.stringify(redacted) : text;
}

function redactJson(value: unknown, depth: number, redactor: Redactor, state: { changed: boolean }): unknown {
  if (typeof value === 'string') {
    const scrubbed = redactor.redactWhole(value);
    if (scrubbed !== value) state.changed = true;
    return scrubbed;
  }
  if (typeof value === 'number') {
    // A card number sent as a JSON number is still a card number.
    const scrubbed = redactor.redactWhole(String(value));
    if (scrubbed === String(value)) return value;
    state.changed = true;
    return scrubbed;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_BODY_DEPTH) {
    state.changed = true;
    return '[REDACTED:nested too deep]';
  }
  if (Array.isArray(value)) return value.map((item) => redactJson(item, depth + 1, redactor, state));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_NAME.test(key) && item !== null && typeof item !== 'object') {
      state.changed = true;
      out[key] = REDACTED_VALUE;
    } else out[key] = redactJson(item, depth + 1, redactor, state);
  }
  return out;
}
