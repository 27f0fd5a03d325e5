import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { CookieToSet } from '../../transports/contract/renderer-control.js';

/**
 * A cookie to set, checked against what a browser stores (RFC 6265bis, and Chromium's and Playwright's
 * checks, probed field by field) before it reaches one: each engine refuses a malformed cookie in its own
 * words, some with an error no code maps ("Invalid URL"), some silently (SameSite=None without Secure is
 * dropped and setCookie said true). Here each is refused as the caller's input, naming the field.
 */

/** RFC 6265bis §5.6 and Chromium: a cookie's name and value together are at most 4096 bytes. */
export const COOKIE_NAME_VALUE_MAX_BYTES = 4096;
/** RFC 6265bis §5.6 and Chromium: an attribute's value (domain, path) is at most 1024 bytes. */
export const COOKIE_ATTRIBUTE_MAX_BYTES = 1024;
/** Playwright refuses an expiry past 9999-12-31T23:59:59Z, in seconds since the epoch. */
export const COOKIE_EXPIRES_MAX_SECONDS = 253_402_300_799;
/** A session cookie's expiry, as cookies read back report it. */
const SESSION_EXPIRES = -1;

/** Control characters and `;` end a cookie's name or value in a Set-Cookie line, so a browser refuses them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const UNSENDABLE = /[\u0000-\u001f\u007f;]/;
/** URL schemes a browser keeps cookies for (it refuses data:, file:, about:, ws: and the rest). */
const COOKIE_SCHEMES = new Set(['http:', 'https:']);

const HINT =
  'Give a non-empty name (or value) without `;` or control characters, and either an http(s) `url` or a ' +
  '`domain` (with a `path` starting with `/`); `expires` is seconds since the epoch (-1 or absent: a session ' +
  'cookie); SameSite NONE needs `secure: true`.';

function refuse(field: string, message: string): never {
  throw new StagegraphError('BAD_INPUT', `setCookie(cookie.${field}): ${message}`, {
    hint: HINT,
    details: { field: `cookie.${field}` },
  });
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function checkNameAndValue(cookie: CookieToSet): void {
  if (cookie.name.trim() === '' && cookie.value === '')
    refuse('name', 'a cookie needs a name or a value, and this one has neither.');
  if (cookie.name !== cookie.name.trim())
    refuse('name', 'a name cannot begin or end with whitespace (the browser trims it to another cookie).');
  if (UNSENDABLE.test(cookie.name) || cookie.name.includes('='))
    refuse('name', 'a name cannot hold `=`, `;` or control characters.');
  if (UNSENDABLE.test(cookie.value)) refuse('value', 'a value cannot hold `;` or control characters.');
  if (bytes(cookie.name) + bytes(cookie.value) > COOKIE_NAME_VALUE_MAX_BYTES)
    refuse('value', `name and value together are over ${COOKIE_NAME_VALUE_MAX_BYTES} bytes.`);
}

function checkUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) refuse('url', `"${url.slice(0, 100)}" is not an absolute URL.`);
  if (!COOKIE_SCHEMES.has(parsed.protocol))
    refuse('url', `a browser keeps no cookies for ${parsed.protocol} URLs; give an http(s) one.`);
}

/** A cookie's domain is a bare host, with a leading `.` for its subdomains: no port, path or spaces. */
function checkDomain(domain: string): void {
  const host = domain.startsWith('.') ? domain.slice(1) : domain;
  if (bytes(domain) > COOKIE_ATTRIBUTE_MAX_BYTES)
    refuse('domain', `it is over ${COOKIE_ATTRIBUTE_MAX_BYTES} bytes.`);
  const parsed = host !== '' && URL.canParse(`http://${host}/`) ? new URL(`http://${host}/`) : undefined;
  const bare =
    parsed !== undefined &&
    !UNSENDABLE.test(host) &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.pathname === '/' &&
    parsed.search === '' &&
    parsed.hash === '' &&
    !/[/?#@\s]/.test(host) &&
    // A default port (`:80`) parses away; only an IPv6 literal holds a colon.
    (host.startsWith('[') || !host.includes(':'));
  if (!bare)
    refuse('domain', `"${domain.slice(0, 100)}" is not a host name such as example.com or .example.com.`);
}

function checkPath(path: string): void {
  if (!path.startsWith('/')) refuse('path', 'a path starts with `/`.');
  if (UNSENDABLE.test(path)) refuse('path', 'a path cannot hold `;` or control characters.');
  if (bytes(path) > COOKIE_ATTRIBUTE_MAX_BYTES)
    refuse('path', `it is over ${COOKIE_ATTRIBUTE_MAX_BYTES} bytes.`);
}

function checkExpires(expires: number): void {
  if (!Number.isFinite(expires) || (expires < 0 && expires !== SESSION_EXPIRES))
    refuse('expires', 'give seconds since the epoch, or -1 for a session cookie.');
  if (expires > COOKIE_EXPIRES_MAX_SECONDS)
    refuse('expires', `it is past 9999-12-31 (${COOKIE_EXPIRES_MAX_SECONDS} seconds since the epoch).`);
}

/** The cookie as a browser takes it (a `domain` without `path` gets `/`), or BAD_INPUT naming the field. */
export function checkedCookie(cookie: CookieToSet): CookieToSet {
  checkNameAndValue(cookie);
  if (cookie.url !== undefined) {
    checkUrl(cookie.url);
    if (cookie.domain !== undefined) refuse('domain', 'give `url` or `domain`, not both.');
    if (cookie.path !== undefined)
      refuse('path', 'give `path` with `domain`; with `url` the path is the URL’s.');
  } else if (cookie.domain !== undefined) {
    checkDomain(cookie.domain);
    if (cookie.path !== undefined) checkPath(cookie.path);
  } else {
    refuse('url', 'a cookie needs a `url`, or a `domain` (with `path`).');
  }
  if (cookie.expires !== undefined) checkExpires(cookie.expires);
  if (cookie.sameSite === 'None' && cookie.secure !== true)
    refuse('sameSite', 'a browser drops a SameSite=None cookie that is not `secure: true`.');
  return cookie.url !== undefined ? cookie : { path: '/', ...cookie };
}
