import { describe, expect, it } from 'vitest';
import { OCR_CACHE_ENTRIES, OcrCache } from './ocr-cache.js';

const READ = { words: [], lines: [], truncated: false };

describe('OcrCache', () => {
  it('reads an image once, shares a read under way, and forgets a failed one', async () => {
    const cache = new OcrCache();
    let reads = 0;
    const read = async () => {
      reads += 1;
      return READ;
    };
    const [first, second] = await Promise.all([cache.get('a', read), cache.get('a', read)]);
    expect([first.cached, second.cached, reads]).toEqual([false, true, 1]);
    await expect(cache.get('b', () => Promise.reject(new Error('engine failed')))).rejects.toThrow();
    expect((await cache.get('b', read)).cached).toBe(false);
  });

  it('keeps only the most recently used images', async () => {
    const cache = new OcrCache();
    const read = async () => READ;
    for (let i = 0; i <= OCR_CACHE_ENTRIES; i += 1) await cache.get(`image-${i}`, read);
    expect((await cache.get(`image-${OCR_CACHE_ENTRIES}`, read)).cached).toBe(true);
    expect((await cache.get('image-0', read)).cached).toBe(false);
  });
});

describe('OcrCache.known', () => {
  it('hands over a kept read without reading, and nothing for an image it never read', async () => {
    const cache = new OcrCache();
    await cache.get('a', async () => READ);
    expect(await cache.known('a')).toEqual(READ);
    expect(cache.known('b')).toBeUndefined();
  });
});
