import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/index.js';
import { runsCompiled } from './compiled-queries.js';

const schema = buildSchema();

describe('runsCompiled', () => {
  it('compiles queries and leaves mutations and subscriptions to graphql-js', () => {
    expect(runsCompiled({ schema, document: parse('{ sessions { id } }') })).toBe(true);
    expect(runsCompiled({ schema, document: parse('mutation { stop(id: "s1") }') })).toBe(false);
    expect(runsCompiled({ schema, document: parse('subscription { sessionEvents { kind } }') })).toBe(false);
  });

  it('judges the operation a request names in a document holding several', () => {
    const document = parse('query Read { sessions { id } } mutation Act { stop(id: "s1") }');
    expect(runsCompiled({ schema, document, operationName: 'Read' })).toBe(true);
    expect(runsCompiled({ schema, document, operationName: 'Act' })).toBe(false);
    expect(runsCompiled({ schema, document, operationName: null })).toBe(false);
  });

  it('compiles queries with scalar and enum variables, never one with an input object variable', () => {
    const scalars = parse('query ($s: ID, $n: Int!, $f: ImageFormat) { session(id: $s) { id } }');
    expect(runsCompiled({ schema, document: scalars })).toBe(true);
    // TargetInput holds a TargetInput: graphql-jit's compile of its coercion never ends (graphql-jit#81).
    for (const variable of ['$t: TargetInput', '$t: [TargetInput!]!', '$w: WindowSelector']) {
      const document = parse(`query (${variable}) { sessions { id } }`);
      expect(runsCompiled({ schema, document })).toBe(false);
    }
  });
});
