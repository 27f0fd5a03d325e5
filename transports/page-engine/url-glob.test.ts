import { describe, expect, it } from 'vitest';
import { urlGlob } from './url-glob.js';

describe('urlGlob', () => {
  it('matches the whole url, `*` spanning any characters, everything else literally', () => {
    expect(urlGlob('*/api/*').test('http://127.0.0.1:80/api/data.json?x=1')).toBe(true);
    expect(urlGlob('*/api/*').test('http://127.0.0.1:80/other')).toBe(false);
    expect(urlGlob('http://a.b/x?y=1').test('http://a.b/x?y=1')).toBe(true);
    expect(urlGlob('http://a.b/x?y=1').test('http://aXb/x?y=1')).toBe(false);
  });
});
