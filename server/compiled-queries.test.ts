import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { runsCompiled } from './compiled-queries.js';

describe('runsCompiled', () => {
  it('compiles queries and leaves mutations and subscriptions to graphql-js', () => {
    expect(runsCompiled({ document: parse('{ sessions { id } }') })).toBe(true);
    expect(runsCompiled({ document: parse('mutation { stop(id: "s1") }') })).toBe(false);
    expect(runsCompiled({ document: parse('subscription { sessionEvents { kind } }') })).toBe(false);
  });

  it('judges the operation a request names in a document holding several', () => {
    const document = parse('query Read { sessions { id } } mutation Act { stop(id: "s1") }');
    expect(runsCompiled({ document, operationName: 'Read' })).toBe(true);
    expect(runsCompiled({ document, operationName: 'Act' })).toBe(false);
    expect(runsCompiled({ document, operationName: null })).toBe(false);
  });
});
