import { describe, expect, it } from 'vitest';
import { isCardNumber, MAX_REDACTED_STRING_LENGTH, Redactor, SCRUB_OVERLAP } from './redaction.js';

describe('Redactor', () => {
  const redactor = new Redactor();

  it('redacts what is typed into a password field, or marked secret, and keeps the shape', () => {
    const args = { target: { ref: 'e7' }, value: 'hunter2-Password!', timeoutMs: 500 };
    expect(
      redactor.redact(args, {
        target: { kind: 'element' as const, role: 'textbox', name: 'Your pin', inputType: 'password' },
      }),
    ).toEqual({
      target: { ref: 'e7' },
      value: '[REDACTED:secret]',
      timeoutMs: 500,
    });
    expect(redactor.redact({ value: 'x1', secret: true }, { secret: true })).toEqual({
      value: '[REDACTED:secret]',
      secret: true,
    });
    expect(
      redactor.redact(
        { text: 'abc' },
        { target: { kind: 'element' as const, role: 'textbox', name: 'Password' } },
      ),
    ).toEqual({
      text: '[REDACTED:secret]',
    });
    expect(redactor.redact({ values: ['a', 'b'] }, { secret: true })).toEqual({
      values: ['[REDACTED:secret]', '[REDACTED:secret]'],
    });
    expect(
      redactor.redact(
        { value: 'Ann' },
        { target: { kind: 'element' as const, role: 'textbox', name: 'First name' } },
      ),
    ).toEqual({
      value: 'Ann',
    });
  });

  it('redacts cookie values and secret-named keys wherever they are', () => {
    expect(
      redactor.redact(
        { cookies: [{ name: 'sid', value: 'abc123', domain: 'x.test' }] },
        { operation: 'addCookies' },
      ),
    ).toEqual({ cookies: [{ name: 'sid', value: '[REDACTED:cookie]', domain: 'x.test' }] });
    expect(redactor.redact({ name: 'sid', value: 'abc' }, { operation: 'setCookie' })).toEqual({
      name: 'sid',
      value: '[REDACTED:cookie]',
    });
    expect(redactor.redact({ headers: { Authorization: 'x', apiKey: 'y', compass: 'north' } })).toEqual({
      headers: { Authorization: '[REDACTED:secret]', apiKey: '[REDACTED:secret]', compass: 'north' },
    });
  });

  it('scrubs bearer tokens, API keys, JWTs, credentials in urls and emails out of any string', () => {
    const text =
      'Bearer abcdefgh12345678 sk_live_abcdefghijklmno ghp_abcdefghijklmnopqrstuvwx eyJhbGciOi.eyJzdWIiOi.sig https://x.test/?token=s3cr3t&q=1 mail ann@example.com';
    const scrubbed = redactor.redactText(text);
    for (const secret of ['abcdefgh12345678', 'sk_live', 'ghp_', 'eyJ', 's3cr3t', 'ann@example.com'])
      expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('&q=1');
    expect(scrubbed).toMatch(/\[REDACTED:email\]/);
  });

  it('scrubs credentials whose name only ends in a secret word, and Luhn-valid card numbers only', () => {
    expect(redactor.redactText('/p?session_token=S3CRET&x-api-key=K&q=1')).toBe(
      '/p?[REDACTED:credential]&[REDACTED:credential]&q=1',
    );
    expect(
      redactor.redactText('card 4111 1111 1111 1111, amex 3782-822463-10005, visa 4111111111111111'),
    ).toBe('card [REDACTED:card], amex [REDACTED:card], visa [REDACTED:card]');
    // A millisecond time, an order number failing Luhn and a 20-digit id stay readable.
    expect(redactor.redactText('at 1733500000000 order 4111111111111112 id 41111111111111111111')).toBe(
      'at 1733500000000 order 4111111111111112 id 41111111111111111111',
    );
    expect(isCardNumber('4111-1111-1111-1111')).toBe(true);
    expect(isCardNumber('4111')).toBe(false);
  });

  it('scrubs a whole text uncut when its caller bounded it', () => {
    const text = `${'a'.repeat(MAX_REDACTED_STRING_LENGTH + SCRUB_OVERLAP)} ann@example.com`;
    expect(redactor.redactWhole(text)).toBe(
      `${'a'.repeat(MAX_REDACTED_STRING_LENGTH + SCRUB_OVERLAP)} [REDACTED:email]`,
    );
  });

  it('scrubs a national id as written (3-2-4 digits), not numbers never issued', () => {
    expect(redactor.redactText('ssn 219-09-9999, call 555-0100')).toBe(
      'ssn [REDACTED:national-id], call 555-0100',
    );
    for (const never of [
      '000-12-3456',
      '666-12-3456',
      '900-12-3456',
      '123-00-4567',
      '123-45-0000',
      '1219-09-9999',
    ])
      expect(redactor.redactText(never)).toBe(never);
  });

  it('reads the current patterns at each use, so a new policy masks from its next value on', () => {
    let current = [{ name: 'order', pattern: /ORD-\d+/g }];
    const following = new Redactor({ currentPatterns: () => current });
    expect(following.redactText('ORD-1 EMP-2')).toBe('[REDACTED:order] EMP-2');
    current = [{ name: 'badge', pattern: /EMP-\d+/g }];
    expect(following.redactText('ORD-1 EMP-2')).toBe('ORD-1 [REDACTED:badge]');
  });

  it('takes configured patterns, and cuts long strings', () => {
    const custom = new Redactor({ extraPatterns: [{ name: 'order', pattern: /ORD-\d+/ }] });
    expect(custom.redactText('see ORD-1 and ORD-22')).toBe('see [REDACTED:order] and [REDACTED:order]');
    const long = redactor.redact({ text: 'a'.repeat(MAX_REDACTED_STRING_LENGTH + 10) }).text;
    expect(long).toHaveLength(MAX_REDACTED_STRING_LENGTH + '…[+10 chars]'.length);
  });
});

describe('Redactor on strings as long as a request can carry', () => {
  const redactor = new Redactor();
  const cutTo = (kept: string, total: number) =>
    `${kept.slice(0, MAX_REDACTED_STRING_LENGTH)}…[+${total - MAX_REDACTED_STRING_LENGTH} chars]`;

  // Each of these took the old patterns far past the test's timeout (one 100,000-character word: 7.6 s
  // through the e-mail pattern; a million characters, minutes), scrubbing the whole string each time.
  it.each([
    ['a word of a million characters', 'a'.repeat(1_000_000)],
    ['a million characters of "-eyJ"', '-eyJ'.repeat(250_000)],
    ['a million characters of "a."', 'a.'.repeat(500_000)],
  ])('cuts %s after scrubbing only its head', (_, text) => {
    expect(redactor.redactText(text)).toBe(cutTo(text, text.length));
  });

  it('tries a run of e-mail or JWT characters once, from its start, and still finds the secret inside it', () => {
    const word = 'x'.repeat(500);
    expect(redactor.redactText(`${word} ann@example.com`)).toBe(`${word} [REDACTED:email]`);
    expect(redactor.redactText(`see ${word}@example.com`)).toBe('see [REDACTED:email]');
    expect(redactor.redactText('mail:ann@example.com, jwt=eyJhbGciOi.eyJzdWIiOi.sig')).toBe(
      'mail:[REDACTED:email], jwt=[REDACTED:jwt]',
    );
  });

  it('redacts a secret that crosses the cut, and never reads past the overlap', () => {
    const head = 'h'.repeat(MAX_REDACTED_STRING_LENGTH - 5);
    const crossing = redactor.redactText(`${head} ann@example.com and more`);
    expect(crossing.slice(head.length)).toBe(' [RED…[+21 chars]');
    const past = `${'h'.repeat(MAX_REDACTED_STRING_LENGTH + SCRUB_OVERLAP)} ann@example.com`;
    expect(redactor.redactText(past).endsWith(`…[+${past.length - MAX_REDACTED_STRING_LENGTH} chars]`)).toBe(
      true,
    );
  });
});

describe('Redactor with the schema’s disclosure', () => {
  const redactor = new Redactor();

  it('redacts every part not declared clear or typed, however it looks', () => {
    const args = {
      origin: 'http://127.0.0.1:1',
      key: 'draft',
      value: 'plain words',
      input: { command: '/bin/app', env: [{ name: 'HOME', value: '/home/me' }], extra: 'x' },
      timeoutMs: 5,
    };
    const disclosure = {
      origin: 'clear',
      key: 'clear',
      value: 'redact',
      input: { command: 'clear', env: { name: 'clear' } },
      timeoutMs: 'clear',
    } as const;
    expect(redactor.redact(args, { disclosure })).toEqual({
      origin: 'http://127.0.0.1:1',
      key: 'draft',
      value: '[REDACTED:value]',
      input: {
        command: '/bin/app',
        env: [{ name: 'HOME', value: '[REDACTED:value]' }],
        extra: '[REDACTED:value]',
      },
      timeoutMs: 5,
    });
  });

  it('shows typed text unless the target is secret', () => {
    const disclosure = { value: 'typed' } as const;
    expect(redactor.redact({ value: 'hello' }, { disclosure })).toEqual({ value: 'hello' });
    expect(redactor.redact({ value: 'hello' }, { disclosure, secret: true })).toEqual({
      value: '[REDACTED:secret]',
    });
  });
});
