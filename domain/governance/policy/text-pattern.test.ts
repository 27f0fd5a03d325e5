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

  it('? is one character (not a slash in paths), and stars chain or stand for nothing', () => {
    expect(compilePattern('c?t', 'text').test('CAT')).toBe(true);
    expect(compilePattern('c?t', 'text').test('ct')).toBe(false);
    expect(compilePattern('/a?b', 'path').test('/a/b')).toBe(false);
    expect(compilePattern('**', 'path').test('')).toBe(true);
    expect(compilePattern('a***b', 'text').test('ab')).toBe(true);
    expect(compilePattern('*.txt', 'text').test('notes.TXT.bak')).toBe(false);
    expect(compilePattern('/home/*/**/x', 'path').test('/home/me/a/b/x')).toBe(true);
    expect(compilePattern('/home/*/**/x', 'path').test('/home/x')).toBe(false);
  });

  // As a regular expression `^.*a.*b.*c.*$` backtracked through every split of the value: 0.45 s for
  // 20,000 characters with two stars, far past the test's timeout here.
  it('matches a glob of several stars against a value of half a million characters in one pass', () => {
    const value = 'a'.repeat(500_000);
    expect(compilePattern('*a*b*c*', 'text').test(value)).toBe(false);
    expect(compilePattern('*a*a*a*', 'text').test(value)).toBe(true);
    expect(compilePattern('**/a*/*b', 'path').test(`/${value}/${value}`)).toBe(false);
  });

  it('/regex/flags is searched, and a bad one throws', () => {
    expect(compilePattern('/pay|purchase/i', 'text').test('Complete PURCHASE')).toBe(true);
    const sticky = compilePattern('/a/g', 'text');
    expect([sticky.test('a'), sticky.test('a')]).toEqual([true, true]);
    expect(() => compilePattern('/(/', 'text')).toThrow(SyntaxError);
  });
});
