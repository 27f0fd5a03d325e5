import { describe, expect, it } from 'vitest';
import { FINGERPRINT_ANCESTORS, type FingerprintSource, fingerprint } from './fingerprint.js';

describe('fingerprint', () => {
  const chain: Record<string, FingerprintSource> = {
    a: { role: 'document', name: 'Page', parentRef: null },
    b: { role: 'table', name: 'Users', parentRef: 'a' },
    c: { role: 'row', name: 'Row 3', parentRef: 'b' },
    d: { role: 'cell', name: 'Delete', parentRef: 'c' },
  };
  const lookup = (ref: string) => chain[ref];

  it(`reads the node and its nearest ${FINGERPRINT_ANCESTORS} ancestors`, () => {
    const button = { role: 'button', name: 'Delete', parentRef: 'd' };
    expect(fingerprint(button, lookup)).toBe(
      ['button', 'Delete', 'cell', 'Delete', 'row', 'Row 3', 'table', 'Users'].join('\u0000'),
    );
    expect(fingerprint(button, lookup)).not.toBe(
      fingerprint(button, (ref) => (ref === 'c' ? { ...chain.c!, name: 'Row 7' } : chain[ref])),
    );
    // A change beyond the nearest ancestors does not matter.
    expect(fingerprint(button, lookup)).toBe(
      fingerprint(button, (ref) => (ref === 'a' ? { ...chain.a!, name: 'Other' } : chain[ref])),
    );
  });
});
