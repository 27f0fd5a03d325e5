import { describe, expect, it } from 'vitest';
import { compilePattern } from './text-pattern.js';

describe('compilePattern', () => {
  it('text globs match the whole value, any characters, ignoring case', () => {
    const pattern = compilePattern('*delete*', 'text');
    expect(pattern.test('Really DELETE it/now')).toBe(true);
    expect(pattern.test('Remove')).toBe(false);
    expect(compilePattern('Save', 'text').test('Save as')).toBe(false);
  });

  it('path globs stop * at slashes, cross them with **, and respect case', () => {
    expect(compilePattern('/opt/*/app', 'path').test('/opt/x/app')).toBe(true);
    expect(compilePattern('/opt/*/app', 'path').test('/opt/x/y/app')).toBe(false);
    expect(compilePattern('**/billing*', 'path').test('/home/a/billing-app')).toBe(true);
    expect(compilePattern('**/Billing', 'path').test('/home/billing')).toBe(false);
  });

  it('/regex/flags is searched, and a bad one throws', () => {
    expect(compilePattern('/pay|purchase/i', 'text').test('Complete PURCHASE')).toBe(true);
    const sticky = compilePattern('/a/g', 'text');
    expect([sticky.test('a'), sticky.test('a')]).toEqual([true, true]);
    expect(() => compilePattern('/(/', 'text')).toThrow(SyntaxError);
  });
});
