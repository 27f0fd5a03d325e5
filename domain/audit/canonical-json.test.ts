import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, drops undefined, and is parseable JSON', () => {
    const text = canonicalJson({
      b: 1,
      a: { d: [1, undefined, 'x'], c: null },
      e: undefined,
      t: new Date(0),
    });
    expect(text).toBe('{"a":{"c":null,"d":[1,null,"x"]},"b":1,"t":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    expect(canonicalJson({ y: 1, x: 2 })).toBe(canonicalJson({ x: 2, y: 1 }));
  });
});
