import { describe, expect, it } from 'vitest';
import {
  type GuardedRequest,
  guardPolicy,
  guardRequest,
  hostnameOf,
  maxHeaderBytes,
} from './request-guard.js';
import { DEFAULT_MAX_REQUEST_BYTES } from './request-limits.js';

const policy = guardPolicy({
  host: '127.0.0.1',
  allowedOrigins: ['http://localhost:3000'],
  allowedHosts: [],
});
const json = { 'content-type': 'application/json' };
const verdict = (method: string, headers: GuardedRequest['headers'], readsNoBody = false) =>
  guardRequest({ method, headers, readsNoBody }, policy)?.code ?? 'ok';

describe('request guard', () => {
  it('lets non-browser clients through: no Origin, a loopback Host', () => {
    expect(verdict('POST', { host: '127.0.0.1:4700', ...json })).toBe('ok');
    expect(verdict('POST', { host: 'localhost:4700', ...json })).toBe('ok');
    expect(verdict('POST', { host: '[::1]:4700', 'content-type': 'application/json; charset=utf-8' })).toBe(
      'ok',
    );
    expect(verdict('GET', { host: '127.0.0.1' })).toBe('ok');
  });

  it('lets the gateway’s own pages and allowed origins through', () => {
    expect(verdict('POST', { host: '127.0.0.1:4700', origin: 'http://127.0.0.1:4700', ...json })).toBe('ok');
    expect(verdict('GET', { host: '127.0.0.1:4700', origin: 'http://127.0.0.1:4700' }, true)).toBe('ok');
    expect(verdict('POST', { host: '127.0.0.1:4700', origin: 'http://localhost:3000', ...json })).toBe('ok');
    expect(
      verdict('POST', {
        host: '127.0.0.1:4700',
        origin: 'http://localhost:3000',
        'sec-fetch-site': 'cross-site',
        ...json,
      }),
    ).toBe('ok');
  });

  it.each([
    ['a foreign origin', { origin: 'http://evil.example' }],
    ['another port of loopback', { origin: 'http://127.0.0.1:9999' }],
    ['the opaque origin', { origin: 'null' }],
    ['a cross-site request without Origin (img, script)', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site request without Origin', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s, on HTTP and on the upgrade', (_, extra) => {
    expect(verdict('POST', { host: '127.0.0.1:4700', ...json, ...extra })).toBe('FORBIDDEN_ORIGIN');
    expect(verdict('GET', { host: '127.0.0.1:4700', ...extra }, true)).toBe('FORBIDDEN_ORIGIN');
    expect(verdict('OPTIONS', { host: '127.0.0.1:4700', ...extra })).toBe('FORBIDDEN_ORIGIN');
  });

  it('lets a person follow a link to a page, but not a cross-site POST navigation (a form)', () => {
    const navigate = {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    expect(verdict('GET', { host: '127.0.0.1:4700', ...navigate })).toBe('ok');
    expect(verdict('GET', { host: '127.0.0.1:4700', ...navigate, 'sec-fetch-dest': 'iframe' })).toBe(
      'FORBIDDEN_ORIGIN',
    );
    expect(
      verdict('POST', {
        host: '127.0.0.1:4700',
        ...navigate,
        'content-type': 'application/x-www-form-urlencoded',
      }),
    ).not.toBe('ok');
  });

  it.each(['evil.example:4700', 'evil.example', '127.0.0.1.evil.example', '', 'a b', 'user@127.0.0.1'])(
    'refuses the Host %j (DNS rebinding)',
    (host) => {
      expect(verdict('POST', { host, ...json })).toBe('FORBIDDEN_HOST');
      expect(verdict('GET', { host }, true)).toBe('FORBIDDEN_HOST');
    },
  );

  it('refuses a missing Host', () => {
    expect(verdict('GET', {})).toBe('FORBIDDEN_HOST');
  });

  it('answers to configured hosts and a named bind address', () => {
    const named = guardPolicy({ host: '10.0.0.5', allowedHosts: ['gw.internal'] });
    expect(guardRequest({ method: 'GET', headers: { host: 'gw.internal:4700' } }, named)).toBeNull();
    expect(guardRequest({ method: 'GET', headers: { host: '10.0.0.5:4700' } }, named)).toBeNull();
    expect(guardRequest({ method: 'GET', headers: { host: 'other:4700' } }, named)?.code).toBe(
      'FORBIDDEN_HOST',
    );
    expect(guardPolicy({ host: '0.0.0.0' }).allowedHosts).toEqual([]);
  });

  it.each([
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
    'application/graphql',
    undefined,
  ])('refuses a %s body', (type) => {
    const headers = { host: '127.0.0.1:4700', ...(type ? { 'content-type': type } : {}) };
    expect(verdict('POST', headers)).toBe('UNSUPPORTED_CONTENT_TYPE');
  });

  it('refuses a declared body or a query string over the request limit, and a Content-Length that is not one', () => {
    const small = guardPolicy({ host: '127.0.0.1', maxRequestBytes: 100 });
    const sized = (method: string, url: string, length?: string, readsNoBody = false) =>
      guardRequest(
        {
          method,
          url,
          readsNoBody,
          headers: { host: '127.0.0.1', ...json, ...(length ? { 'content-length': length } : {}) },
        },
        small,
      );
    expect(sized('POST', '/graphql', '100')).toBeNull();
    expect(sized('POST', '/graphql', '101')).toMatchObject({ status: 413, code: 'REQUEST_TOO_LARGE' });
    expect(sized('POST', '/mcp', '101')).toMatchObject({ status: 413, code: 'REQUEST_TOO_LARGE' });
    expect(sized('GET', `/graphql?query=${'x'.repeat(100)}`)).toMatchObject({
      status: 414,
      code: 'REQUEST_TOO_LARGE',
    });
    expect(sized('GET', `/graphql?query=${'x'.repeat(100)}`, undefined, true)?.code).toBe(
      'REQUEST_TOO_LARGE',
    );
    for (const length of ['-1', '1e3', '10, 10', ''])
      expect(sized('POST', '/graphql', length || ' ')).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('holds every route to 1 MiB by default, and lets Node read a query string that long', () => {
    expect(policy.maxRequestBytes).toBe(DEFAULT_MAX_REQUEST_BYTES);
    expect(DEFAULT_MAX_REQUEST_BYTES).toBe(1024 * 1024);
    expect(maxHeaderBytes(policy)).toBeGreaterThan(DEFAULT_MAX_REQUEST_BYTES);
  });

  it('reads host names out of Host headers', () => {
    expect(hostnameOf('[::1]:4700')).toBe('::1');
    expect(hostnameOf('LocalHost')).toBe('localhost');
    expect(hostnameOf('127.0.0.1:99999999')).toBeUndefined();
  });
});
