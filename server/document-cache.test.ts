import { parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import {
  DocumentCache,
  MAX_CACHED_DOCUMENT_CHARS,
  MAX_CACHED_DOCUMENT_SHARE,
  useDocumentCache,
} from './document-cache.js';

function servedWith(cache: DocumentCache) {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { hello(name: String): String }', resolvers: {} }),
    plugins: [useDocumentCache(cache)],
    parserAndValidationCache: false,
    logging: false,
  });
  return async (query: string) => {
    const response = await yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { errors?: { message: string }[] };
  };
}

describe('DocumentCache', () => {
  it('keeps the most recently used documents within its count', () => {
    const cache = new DocumentCache(2, 1_000);
    const [a, b, c] = ['{ a }', '{ b }', '{ c }'].map((text) => ({ text, document: parse(text) }));
    cache.set(a!.text, a!.document);
    cache.set(b!.text, b!.document);
    expect(cache.get(a!.text)).toBe(a!.document);
    cache.set(c!.text, c!.document);
    expect(cache.get(b!.text)).toBeUndefined();
    expect(cache.get(a!.text)).toBe(a!.document);
    expect(cache.size).toBe(2);
  });

  it('keeps its documents within its text budget and never keeps one past its share of it', () => {
    const cache = new DocumentCache(100, 80);
    const text = (n: number, length: number) => `{ a${n} }`.padEnd(length, ' ');
    for (let n = 0; n < 10; n += 1) cache.set(text(n, 10), parse(text(n, 10)));
    expect(cache.chars).toBeLessThanOrEqual(80);
    expect(cache.size).toBe(8);
    cache.set(text(99, 11), parse(text(99, 11)));
    expect(cache.get(text(99, 11))).toBeUndefined();
    expect(MAX_CACHED_DOCUMENT_CHARS / MAX_CACHED_DOCUMENT_SHARE).toBeGreaterThan(10_000);
  });
});

describe('useDocumentCache', () => {
  it('parses a valid document once and answers the same text with the same document', async () => {
    const cache = new DocumentCache();
    const send = servedWith(cache);
    expect(await send('{ hello }')).not.toHaveProperty('errors');
    const document = cache.get('{ hello }');
    expect(document).toBeDefined();
    expect(await send('{ hello }')).not.toHaveProperty('errors');
    expect(cache.get('{ hello }')).toBe(document);
    expect(cache.size).toBe(1);
  });

  it('keeps no document that fails to parse or validate, however many different ones arrive', async () => {
    const cache = new DocumentCache();
    const send = servedWith(cache);
    for (let n = 0; n < 50; n += 1) {
      expect((await send(`{ hello(name: "${n}") `)).errors?.[0]?.message).toMatch(/Syntax Error/);
      expect((await send(`{ nope${n} }`)).errors?.[0]?.message).toMatch(/Cannot query field/);
      // Answered as at first: nothing about it was kept.
      expect((await send(`{ nope${n} }`)).errors?.[0]?.message).toMatch(/Cannot query field/);
    }
    expect(cache.size).toBe(0);
  });
});
