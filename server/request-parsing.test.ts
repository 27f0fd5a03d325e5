import { describe, expect, it } from 'vitest';
import { jsonNestsWithin, parseClientJson } from './request-parsing.js';

describe('client JSON', () => {
  it('measures nesting outside strings, escapes included', () => {
    expect(jsonNestsWithin('{"a":[1,{"b":[]}]}', 4)).toBe(true);
    expect(jsonNestsWithin('{"a":[1,{"b":[]}]}', 3)).toBe(false);
    expect(jsonNestsWithin(`{"a":"${'['.repeat(1_000)}"}`, 1)).toBe(true);
    expect(jsonNestsWithin(`{"a":"\\"${'['.repeat(10)}"}`, 1)).toBe(true);
    expect(jsonNestsWithin(`{"a":"\\\\"${'['.repeat(10)}`, 1)).toBe(false);
  });

  it('measures UTF-8 bytes as their text', () => {
    const text = `{"é€😀":["[{",{"b":[]}]}`;
    for (const max of [3, 4])
      expect(jsonNestsWithin(Buffer.from(text), max)).toBe(jsonNestsWithin(text, max));
    expect(jsonNestsWithin(Buffer.from('['.repeat(100)), 99)).toBe(false);
  });

  it('refuses text that is not JSON as BAD_REQUEST and deep JSON before parsing it', () => {
    expect(parseClientJson('{"a":1}', 'The body')).toEqual({ a: 1 });
    expect(() => parseClientJson('notjson', 'The `variables` parameter')).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/^The `variables` parameter is not valid JSON/),
      }),
    );
    expect(() => parseClientJson('['.repeat(1_000_000), 'The body')).toThrow(
      expect.objectContaining({ code: 'REQUEST_TOO_LARGE' }),
    );
  });
});
