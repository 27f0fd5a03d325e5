import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkDocument, checkVariables } from './document-limits.js';
import { MAX_DOCUMENT_TOKENS, MAX_NESTING } from './request-limits.js';

const nested = (depth: number) => `${'{"within":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('document limits', () => {
  it('lets a document through up to the token limit, and refuses one token more', () => {
    // `{ a a … }`: two braces and the names.
    const names = (count: number) => `{ ${'a '.repeat(count)}}`;
    expect(() => checkDocument(names(MAX_DOCUMENT_TOKENS - 2))).not.toThrow();
    expect(() => checkDocument(names(MAX_DOCUMENT_TOKENS - 1))).toThrow(
      expect.objectContaining({ code: 'REQUEST_TOO_LARGE' }),
    );
  });

  // graphql's parser recurses once per level: a few thousand `[` overflowed the stack (answered INTERNAL).
  it('refuses nesting past the limit before the parser recurses into it', () => {
    const list = (depth: number) => `{ a(x: ${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}) }`;
    expect(() => checkDocument(list(MAX_NESTING))).not.toThrow();
    expect(() => checkDocument(list(MAX_NESTING + 1))).toThrow(/nests deeper than 64 levels/);
    expect(() => checkDocument(list(1_000_000))).toThrow(
      expect.objectContaining({ code: 'REQUEST_TOO_LARGE' }),
    );
  });

  it('leaves a lexical error to the parser, which says where it is', () => {
    expect(() => checkDocument('{ a(x: "unterminated) }')).not.toThrow();
    expect(() => parse('{ a(x: "unterminated) }')).toThrow(/Unterminated string/);
  });

  it('counts a megabyte string literal as one token', () => {
    expect(() => checkDocument(`{ a(x: "${'a'.repeat(1_000_000)}") }`)).not.toThrow();
  });

  it('refuses variables nested past the limit, without recursing', () => {
    expect(() => checkVariables({ t: JSON.parse(nested(MAX_NESTING - 1)) })).not.toThrow();
    expect(() => checkVariables({ t: JSON.parse(nested(MAX_NESTING)) })).toThrow(/variables nest deeper/);
    expect(() => checkVariables(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toThrow(
      expect.objectContaining({ code: 'REQUEST_TOO_LARGE' }),
    );
    expect(() => checkVariables(null)).not.toThrow();
  });
});
