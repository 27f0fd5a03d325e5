import { describe, expect, it } from 'vitest';
import type { NetworkRecord } from '../../../transports/contract/renderer-control.js';
import { Redactor } from './redaction.js';
import {
  MAX_REDACTED_BODY_CHARS,
  MAX_REDACTED_URL_LENGTH,
  redactBody,
  redactedNetworkParts,
  redactHeaders,
  redactUrl,
} from './redaction-network.js';

const redactor = new Redactor();
const text = (data: string) => ({ encoding: 'TEXT' as const, data, size: data.length, truncated: false });
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl';

describe('redactHeaders', () => {
  it('hides every credential-named header, not only authorization and cookie', () => {
    const shown = redactHeaders(
      {
        authorization: 'Basic dXNlcjpwYXNz',
        'proxy-authorization': 'Basic eA==',
        cookie: 'sid=1',
        'set-cookie': 'sid=2',
        'x-api-key': 'APIKEY123',
        'x-auth-token': 'T0KEN',
        'x-csrf-token': 'CSRF',
        'x-session-id': 'S1',
        'x-amz-signature': 'SIG',
        'content-type': 'application/json',
        accept: '*/*',
      },
      redactor,
    );
    expect(Object.fromEntries(shown.map(({ name, value }) => [name, value]))).toEqual({
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      'x-api-key': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-csrf-token': '[redacted]',
      'x-session-id': '[redacted]',
      'x-amz-signature': '[redacted]',
      'content-type': 'application/json',
      accept: '*/*',
    });
  });

  it('redacts URL-valued headers as URLs and scrubs the rest by pattern', () => {
    const shown = redactHeaders(
      { referer: 'http://app.test/login?session_token=ABC&page=2', 'x-trace': `jwt ${JWT}` },
      redactor,
    );
    expect(shown).toEqual([
      { name: 'referer', value: 'http://app.test/login?session_token=[redacted]&page=2' },
      { name: 'x-trace', value: 'jwt [REDACTED:jwt]' },
    ]);
  });
});

describe('redactUrl', () => {
  it('hides secret-named query and fragment parameters and a password, keeping the rest', () => {
    expect(
      redactUrl(
        'https://user:hunter2@app.test/p?session_token=S3CRET&q=shoes&api%5Fkey=K&sig=abc#access_token=T&x=1',
        redactor,
      ),
    ).toBe(
      'https://user:[redacted]@app.test/p?session_token=[redacted]&q=shoes&api%5Fkey=[redacted]&sig=[redacted]#access_token=[redacted]&x=1',
    );
  });

  it('scrubs patterns in the path and cuts a URL over the bound before reading it', () => {
    expect(redactUrl(`https://app.test/u/ann@example.com/${JWT}`, redactor)).toBe(
      'https://app.test/u/[REDACTED:email]/[REDACTED:jwt]',
    );
    const long = `data:text/plain,${'a'.repeat(MAX_REDACTED_URL_LENGTH)}`;
    const shown = redactUrl(long, redactor);
    expect(shown.endsWith(`…[+${long.length - MAX_REDACTED_URL_LENGTH} chars]`)).toBe(true);
    expect(shown.length).toBeLessThan(MAX_REDACTED_URL_LENGTH + 40);
  });
});

describe('redactBody', () => {
  it('hides secret-named JSON fields and values matching the patterns, however nested or typed', () => {
    const body = JSON.stringify({
      user: 'ann',
      password: 'BODYPASSWORD',
      card: '4111111111111111',
      cardAsNumber: 4111111111111111,
      nested: { contact: 'ann@example.com', list: [{ apiKey: 'K' }, JWT] },
      order: 1733500000000,
    });
    const shown = redactBody(text(body), 'application/json', redactor);
    expect(JSON.parse(shown?.data ?? '')).toEqual({
      user: 'ann',
      password: '[redacted]',
      card: '[REDACTED:card]',
      cardAsNumber: '[REDACTED:card]',
      nested: { contact: '[REDACTED:email]', list: [{ apiKey: '[redacted]' }, '[REDACTED:jwt]'] },
      order: 1733500000000,
    });
  });

  it('reads JSON sent as text/plain (fetch with a string body) as JSON, and leaves a clean body as sent', () => {
    const shown = redactBody(text('{"password":"BODYPASSWORD"}'), 'text/plain;charset=utf-8', redactor);
    expect(shown?.data).toBe('{"password":"[redacted]"}');
    const clean = '{ "items": [1, 2] }';
    expect(redactBody(text(clean), 'application/json', redactor)?.data).toBe(clean);
  });

  it('hides secret-named form fields and scrubs other text bodies by pattern', () => {
    expect(
      redactBody(
        text('user=ann&password=hunter2&card=4111+1111+1111+1111'),
        'application/x-www-form-urlencoded',
        redactor,
      )?.data,
    ).toBe('user=ann&password=[redacted]&card=[REDACTED:card]');
    expect(redactBody(text(`<p>${JWT}</p>`), 'text/html', redactor)?.data).toBe('<p>[REDACTED:jwt]</p>');
  });

  it('names multipart, binary, unparseable JSON and oversized bodies instead of showing them', () => {
    const multipart = redactBody(
      text('--b\r\nname="password"\r\n\r\nx'),
      'multipart/form-data; boundary=b',
      redactor,
    );
    expect(multipart?.data).toMatch(/^\[REDACTED:multipart body, \d+ bytes\]$/);
    const binary = redactBody(
      { encoding: 'BASE64', data: 'AAAA', size: 3, truncated: false },
      'image/png',
      redactor,
    );
    expect(binary).toEqual({
      encoding: 'TEXT',
      data: '[REDACTED:binary body, 3 bytes]',
      size: 3,
      truncated: false,
    });
    const cut = redactBody(
      { ...text('{"password":"BODYPASS'), truncated: true },
      'application/json',
      redactor,
    );
    expect(cut?.data).toMatch(/^\[REDACTED:JSON body that does not parse/);
    const huge = redactBody(text('x'.repeat(MAX_REDACTED_BODY_CHARS + 1)), 'text/plain', redactor);
    expect(huge?.data).toMatch(/^\[REDACTED:body over the redaction bound/);
  });

  it('cuts JSON nested deeper than the bound instead of recursing through it', () => {
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    expect(redactBody(text(deep), 'application/json', redactor)?.data).toContain(
      '[REDACTED:nested too deep]',
    );
  });

  it('reads near-miss runs once: a megabyte of almost-credentials and almost-cards is scrubbed whole', () => {
    // Quadratic patterns spent minutes on these runs; the report's measurement is in the commit message.
    const hostile = `{"a":"${'session_tokentoken-'.repeat(30_000)}token=1","b":"${'4111 '.repeat(40_000)}"}`;
    const shown = JSON.parse(redactBody(text(hostile), 'application/json', redactor)?.data ?? '');
    expect(shown.a.endsWith('[REDACTED:credential]')).toBe(true);
    expect(shown.b).toBe('4111 '.repeat(40_000));
  });
});

describe('redactedNetworkParts', () => {
  it('redacts a whole record once, whoever reads it', () => {
    const record: NetworkRecord = {
      time: new Date(),
      windowId: 'w1',
      method: 'POST',
      url: 'http://app.test/login?session_token=URLSECRET',
      resourceType: 'fetch',
      status: 200,
      requestHeaders: { 'x-api-key': 'HEADERSECRET', 'content-type': 'application/json' },
      responseHeaders: { 'set-cookie': 'sid=1' },
      durationMs: 3,
      failure: null,
      stubId: null,
      requestBody: text('{"password":"BODYPASSWORD","card":"4111111111111111"}'),
      responseBody: null,
    };
    const parts = redactedNetworkParts(record, redactor);
    expect(redactedNetworkParts(record, redactor)).toBe(parts);
    const all = JSON.stringify(parts);
    for (const secret of ['URLSECRET', 'HEADERSECRET', 'BODYPASSWORD', '4111111111111111', 'sid=1'])
      expect(all).not.toContain(secret);
  });
});
