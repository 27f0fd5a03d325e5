import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback.js';

describe('what stays on this machine', () => {
  it('is localhost, 127.0.0.0/8 and ::1, bare or bracketed as a URL spells it', () => {
    expect(['localhost', '127.0.0.1', '127.9.9.9', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
  });

  it('is not a wildcard bind, a private address, a look-alike name or a name that only starts with 127', () => {
    const elsewhere = ['0.0.0.0', '::', '[::]', '10.0.0.1', '192.168.1.2', 'example.com', '127.example.com'];
    expect(elsewhere.some(isLoopbackHost)).toBe(false);
  });
});
