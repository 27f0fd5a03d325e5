import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { CookieToSet, StorageControl } from '../../transports/contract/renderer-control.js';
import { COOKIE_EXPIRES_MAX_SECONDS, COOKIE_NAME_VALUE_MAX_BYTES } from './cookie-input.js';
import { SessionWebStorage } from './storage.js';

/** A browser's cookie store that keeps whatever reaches it: what the domain lets through is what it sees. */
function storageReaching(): { storage: SessionWebStorage; reached: CookieToSet[] } {
  const reached: CookieToSet[] = [];
  const control = {
    setCookies: async (cookies: readonly CookieToSet[]) => {
      reached.push(...cookies);
    },
  } as unknown as StorageControl;
  return { storage: new SessionWebStorage('s1', () => control), reached };
}

async function refusal(cookie: CookieToSet): Promise<StagegraphError> {
  const { storage, reached } = storageReaching();
  const error = await storage.setCookie(cookie).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(reached, 'a refused cookie never reaches the browser').toEqual([]);
  expect(error).toBeInstanceOf(StagegraphError);
  return error as StagegraphError;
}

const url = 'http://127.0.0.1:8080/';

describe('setCookie: a malformed cookie is the caller’s input, refused before any browser sees it', () => {
  // Each of these answered INTERNAL (Playwright's "Invalid URL") or reached the browser, which refused it in
  // its own words or dropped it while setCookie answered true (found by the schema fuzz, issue 31).
  it.each<[string, CookieToSet, string]>([
    ['no name and a url that is none', { name: '', value: 'x', url: 'not a url' }, 'cookie.url'],
    ['a url with no host', { name: 'a', value: 'x', url: 'http:' }, 'cookie.url'],
    ['an empty url', { name: 'a', value: 'x', url: '' }, 'cookie.url'],
    ['a data: url', { name: 'a', value: 'x', url: 'data:text/plain,hi' }, 'cookie.url'],
    ['a file: url', { name: 'a', value: 'x', url: 'file:///tmp/x' }, 'cookie.url'],
    ['a ws: url', { name: 'a', value: 'x', url: 'ws://127.0.0.1/' }, 'cookie.url'],
    ['neither url nor domain', { name: 'a', value: 'x' }, 'cookie.url'],
    ['no name and no value', { name: '', value: '', url }, 'cookie.name'],
    ['a blank name', { name: ' ', value: '', url }, 'cookie.name'],
    ['a name with `=`', { name: 'a=b', value: 'x', url }, 'cookie.name'],
    ['a name with a NUL', { name: 'a\u0000', value: 'x', url }, 'cookie.name'],
    ['a value with `;`', { name: 'a', value: 'x;y', url }, 'cookie.value'],
    ['a value with a control character', { name: 'a', value: 'x\u0001', url }, 'cookie.value'],
    [
      'name and value over the browser’s size',
      { name: 'a', value: 'x'.repeat(COOKIE_NAME_VALUE_MAX_BYTES), url },
      'cookie.value',
    ],
    ['an empty domain', { name: 'a', value: 'x', domain: '' }, 'cookie.domain'],
    ['a domain that is a sentence', { name: 'a', value: 'x', domain: 'not a domain' }, 'cookie.domain'],
    ['a domain of a dot', { name: 'a', value: 'x', domain: '.' }, 'cookie.domain'],
    ['a domain with a port', { name: 'a', value: 'x', domain: 'example.com:80' }, 'cookie.domain'],
    ['a domain with a NUL', { name: 'a', value: 'x', domain: 'exa\u0000mple.com' }, 'cookie.domain'],
    ['url and domain both', { name: 'a', value: 'x', url, domain: 'example.com' }, 'cookie.domain'],
    ['url and path both', { name: 'a', value: 'x', url, path: '/' }, 'cookie.path'],
    ['a path without its slash', { name: 'a', value: 'x', domain: 'example.com', path: 'a' }, 'cookie.path'],
    ['an empty path', { name: 'a', value: 'x', domain: 'example.com', path: '' }, 'cookie.path'],
    ['an expiry before the epoch', { name: 'a', value: 'x', url, expires: -5 }, 'cookie.expires'],
    [
      'an expiry past year 9999',
      { name: 'a', value: 'x', url, expires: COOKIE_EXPIRES_MAX_SECONDS + 1 },
      'cookie.expires',
    ],
    ['an expiry of 1e308', { name: 'a', value: 'x', url, expires: 1e308 }, 'cookie.expires'],
    ['SameSite=None, not secure', { name: 'a', value: 'x', url, sameSite: 'None' }, 'cookie.sameSite'],
  ])('refuses %s with BAD_INPUT naming the field', async (_, cookie, field) => {
    const error = await refusal(cookie);
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain(field);
    expect(error.details).toEqual({ field });
    expect(error.hint).toMatch(/http\(s\) `url`/);
  });

  it.each<[string, CookieToSet, CookieToSet]>([
    ['by url', { name: 'a', value: 'x', url }, { name: 'a', value: 'x', url }],
    [
      'by domain, given the path `/`',
      { name: 'a', value: 'x', domain: '.example.com' },
      { name: 'a', value: 'x', domain: '.example.com', path: '/' },
    ],
    ['a value-only cookie', { name: '', value: 'x', url }, { name: '', value: 'x', url }],
    [
      'a session cookie, SameSite=None and secure',
      { name: 'a', value: 'é', url: 'https://example.com/', expires: -1, sameSite: 'None', secure: true },
      { name: 'a', value: 'é', url: 'https://example.com/', expires: -1, sameSite: 'None', secure: true },
    ],
  ])('passes a well-formed cookie on: %s', async (_, cookie, expected) => {
    const { storage, reached } = storageReaching();
    await storage.setCookie(cookie);
    expect(reached).toEqual([expected]);
  });
});
