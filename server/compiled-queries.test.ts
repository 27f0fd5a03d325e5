import {
  execute,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/index.js';
import { compiledEventExecution, runsCompiled, useCompiledQueries } from './compiled-queries.js';

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

/** A subscription whose events are `{ n, word }`, its field taking a scalar and its stream an input. */
function tickSchema() {
  const tick = new GraphQLObjectType<{ n: number; word: string }>({
    name: 'Tick',
    fields: {
      n: { type: new GraphQLNonNull(GraphQLInt) },
      word: {
        type: GraphQLString,
        args: { shout: { type: GraphQLString } },
        resolve: (event, args) => (args.shout ? event.word.toUpperCase() : event.word),
      },
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: new GraphQLNonNull(tick),
          resolve: (event) => event,
          args: { after: { type: GraphQLInt } },
        },
      },
    }),
  });
}

describe('compiledEventExecution', () => {
  it('maps an event as graphql-js does, compiled once per document and operation', async () => {
    const schema = tickSchema();
    const document = parse('subscription ($s: String) { tick(after: 1) { n word loud: word(shout: $s) } }');
    const execution = compiledEventExecution({ schema, document });
    expect(execution).toBeTypeOf('function');
    expect(compiledEventExecution({ schema, document })).toBe(execution);
    const variableValues = { s: 'yes' };
    const rootValue = { n: 7, word: 'seven' };
    const compiled = await execution?.(rootValue, {}, variableValues);
    expect(compiled).toEqual(await execute({ schema, document, rootValue, variableValues }));
    expect(compiled).toEqual({ data: { tick: { n: 7, word: 'seven', loud: 'SEVEN' } } });
  });

  it('leaves queries, and subscriptions with input object variables, to graphql-js', () => {
    const schema = buildSchema();
    expect(compiledEventExecution({ schema, document: parse('{ sessions { id } }') })).toBeNull();
    const audit = parse('subscription ($f: AuditFilter) { audit(filter: $f) { droppedBefore } }');
    expect(compiledEventExecution({ schema, document: audit })).toBeNull();
    const consoleFeed = parse('subscription ($s: ID) { console(session: $s) { droppedBefore } }');
    expect(compiledEventExecution({ schema, document: consoleFeed })).toBeTypeOf('function');
  });
});

describe('useCompiledQueries', () => {
  it('runs a document on graphql-js the first time and compiles it when it comes again', async () => {
    const yoga = createYoga({ schema: tickSchema(), plugins: [useCompiledQueries()], logging: false });
    const { execute, schema } = yoga.getEnveloped({});
    const run = async (document: ReturnType<typeof parse>) =>
      (await execute({ schema, document, contextValue: {} })) as { stringify?: unknown; data?: unknown };
    const document = parse('{ ok }');
    // graphql-jit marks what it executed with its own serializer.
    expect(await run(document)).not.toHaveProperty('stringify');
    expect(await run(document)).toHaveProperty('stringify');
  });
});
