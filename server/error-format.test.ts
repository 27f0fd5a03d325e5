import { GraphQLError, parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { useDocumentLimits } from './document-limits.js';
import { MAX_ERROR_MESSAGE_LENGTH, maskError, useRequestErrorFormat } from './error-format.js';
import { useRequestParsing } from './request-parsing.js';

describe('maskError', () => {
  it('keeps an expected failure with its code, hint and next actions', () => {
    const error = new GraphQLError('wrapped', {
      path: ['session'],
      originalError: new StagegraphError('SESSION_NOT_FOUND', 'No session has id "x".', {
        nextActions: ['query { sessions { id } }'],
      }),
    });
    const masked = maskError(error, vi.fn()) as GraphQLError;
    expect(masked.message).toBe('No session has id "x".');
    expect(masked.path).toEqual(['session']);
    expect(masked.extensions).toMatchObject({
      code: 'SESSION_NOT_FOUND',
      retryable: false,
      nextActions: ['query { sessions { id } }'],
    });
    expect(masked.extensions.hint).toMatch(/sessions/);
  });

  it('carries similar refs beside the code when a target missed', () => {
    const similarRefs = [{ ref: 'e4', role: 'button', name: 'Submit', score: 0.8 }];
    const missed = new StagegraphError(
      'SELECTOR_NO_MATCH',
      'No element matches role button named "Sbumit".',
      {
        similarRefs,
      },
    );
    expect((maskError(missed, vi.fn()) as GraphQLError).extensions).toMatchObject({
      code: 'SELECTOR_NO_MATCH',
      similarRefs,
    });
  });

  it('passes an error already in the wire form through untouched', () => {
    const formatted = maskError(new StagegraphError('QUERY_TOO_COMPLEX', 'Too deep.'), vi.fn());
    expect(maskError(formatted, vi.fn())).toBe(formatted);
  });

  it('gives yoga’s refusals of unreadable requests registered codes, keeping their HTTP status', () => {
    const unreadable = new GraphQLError('POST body sent invalid JSON.', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    });
    const masked = maskError(unreadable, vi.fn()) as GraphQLError;
    expect(masked.extensions).toMatchObject({
      code: 'BAD_REQUEST',
      hint: ERROR_CODES.BAD_REQUEST.hint,
      retryable: false,
      nextActions: [],
      http: { status: 400 },
    });
    const tooLarge = new GraphQLError('Request body too large', {
      extensions: { code: 'REQUEST_ENTITY_TOO_LARGE', http: { status: 413 } },
    });
    expect((maskError(tooLarge, vi.fn()) as GraphQLError).extensions.code).toBe('REQUEST_TOO_LARGE');
  });

  it('cuts a client mistake’s message that echoes a huge value', () => {
    const echo = new GraphQLError(
      `Variable "$v" got invalid value "${'a'.repeat(100_000)}"; Expected type Int.`,
    );
    const masked = maskError(echo, vi.fn()) as GraphQLError;
    expect(masked.extensions.code).toBe('VARIABLES_INVALID');
    expect(masked.message).toHaveLength(MAX_ERROR_MESSAGE_LENGTH + 1);
  });

  it('counts a request-level error wrapping a plain Error as ours', () => {
    const log = vi.fn();
    const wrapped = new GraphQLError('Expected type "DateTime". x is undefined', {
      originalError: new TypeError('x is undefined'),
    });
    expect((maskError(wrapped, log) as GraphQLError).extensions.code).toBe('INTERNAL');
    expect((maskError(new SyntaxError('Unexpected token'), log) as GraphQLError).extensions.code).toBe(
      'INTERNAL',
    );
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('hides an unexpected error behind INTERNAL and logs the original', () => {
    const log = vi.fn();
    const bug = new TypeError('cannot read properties of undefined (secret path /home/me/.token)');
    const masked = maskError(new GraphQLError('x', { originalError: bug }), log) as GraphQLError;
    expect(masked.message).toBe('Unexpected error.');
    expect(JSON.stringify(masked.toJSON())).not.toMatch(/secret|TypeError|at /);
    expect(masked.extensions.code).toBe('INTERNAL');
    expect(log).toHaveBeenCalledWith(bug);
  });
});

describe('client mistakes through yoga, as the gateway wires it', () => {
  const logged: unknown[] = [];
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: /* GraphQL */ `
        input TargetInput { ref: String, within: TargetInput }
        type Query { echo(text: String!, count: Int, target: TargetInput): String }
      `,
      resolvers: { Query: { echo: (_: unknown, args: { text: string }) => args.text } },
    }),
    logging: false,
    maskedErrors: { maskError: (error) => maskError(error, (cause) => logged.push(cause)) },
    plugins: [useRequestParsing(), useDocumentLimits(), useRequestErrorFormat()],
  });
  const post = async (body: string) => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, ...(await response.json()) };
  };
  const get = async (search: string) => {
    const response = await yoga.fetch(`http://localhost/graphql?${search}`);
    return { status: response.status, ...(await response.json()) };
  };
  type Answer = { errors?: { message: string; extensions: Record<string, unknown> }[] };
  const firstError = (
    answer: Answer,
  ): { message?: string; nextActions?: string[] } & Record<string, unknown> => ({
    message: answer.errors?.[0]?.message,
    ...answer.errors?.[0]?.extensions,
  });

  it.each([
    [
      'GET variables that are not JSON',
      () => get('query=%7Becho(text:%22a%22)%7D&variables=notjson'),
      'BAD_REQUEST',
    ],
    ['a POST body that is not JSON', () => post('notjson'), 'BAD_REQUEST'],
    ['a POST body that is not an object', () => post('"text"'), 'BAD_REQUEST'],
    ['no query', () => post('{}'), 'BAD_REQUEST'],
    ['a query that is not a string', () => post('{"query":5}'), 'BAD_REQUEST'],
    ['a syntax error', () => post(JSON.stringify({ query: '{ echo(text: "a"' })), 'GRAPHQL_PARSE_FAILED'],
    ['an unknown field', () => post(JSON.stringify({ query: '{ nope }' })), 'GRAPHQL_VALIDATION_FAILED'],
    [
      'an argument of the wrong type',
      () => post(JSON.stringify({ query: '{ echo(text: 5) }' })),
      'GRAPHQL_VALIDATION_FAILED',
    ],
    [
      'a variable of the wrong type',
      () => post(JSON.stringify({ query: 'query($t: String!) { echo(text: $t) }', variables: { t: 5 } })),
      'VARIABLES_INVALID',
    ],
    [
      'a missing required variable',
      () => post(JSON.stringify({ query: 'query($t: String!) { echo(text: $t) }' })),
      'VARIABLES_INVALID',
    ],
    [
      'an input object with an unknown field',
      () =>
        post(
          JSON.stringify({
            query: 'query($t: TargetInput) { echo(text: "a", target: $t) }',
            variables: { t: { bogus: 1 } },
          }),
        ),
      'VARIABLES_INVALID',
    ],
    [
      'variables nested past the limit',
      () =>
        post(
          JSON.stringify({
            query: 'query($t: TargetInput) { echo(text: "a", target: $t) }',
            variables: { t: JSON.parse(`${'{"within":'.repeat(70)}{}${'}'.repeat(70)}`) },
          }),
        ),
      'REQUEST_TOO_LARGE',
    ],
    [
      'a body nested past the limit',
      () => post(`{"query":"{ echo(text: \\"a\\") }","variables":${'['.repeat(5_000)}${']'.repeat(5_000)}}`),
      'REQUEST_TOO_LARGE',
    ],
    [
      'a document nested past the limit',
      () =>
        post(
          JSON.stringify({ query: `{ echo(text: "a", count: ${'['.repeat(3_000)}${']'.repeat(3_000)}) }` }),
        ),
      'REQUEST_TOO_LARGE',
    ],
  ])('answers %s with %s, not retryable, with a hint', async (_, send, code) => {
    logged.length = 0;
    const error = firstError(await send());
    expect(error).toMatchObject({ code, retryable: false, hint: ERROR_CODES[code as 'BAD_REQUEST'].hint });
    expect(Array.isArray(error.nextActions)).toBe(true);
    expect(error).not.toHaveProperty('http');
    expect(logged).toEqual([]);
  });

  it('answers a request whose Accept header fits no answer with BAD_REQUEST and 406, not an empty 406', async () => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/plain' },
      body: JSON.stringify({ query: '{ echo(text: "a") }' }),
    });
    expect(response.status).toBe(406);
    expect(firstError(await response.json())).toMatchObject({ code: 'BAD_REQUEST', retryable: false });
  });

  it('names the type to introspect when a name is wrong', async () => {
    const error = firstError(await post(JSON.stringify({ query: '{ nope }' })));
    expect(error.nextActions).toEqual([
      '{ __type(name: "Query") { name kind fields { name } inputFields { name } enumValues { name } } }',
    ]);
    expect(() => parse(error.nextActions?.[0] ?? '')).not.toThrow();
  });
});

/**
 * SSE has no `error` event: yoga's request handler maps a stream's failure through maskError into one last
 * result. A stream cut without it would never end for its reader (yoga errors its ReadableStream without
 * closing it): a regression shows as these tests' timeout.
 */
describe('a subscription failing mid-stream over SSE, as the gateway wires it', () => {
  const logged: unknown[] = [];
  let failure: unknown;
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: /* GraphQL */ `
        type Query { unused: Int }
        type Subscription { tick: Int }
      `,
      resolvers: {
        Subscription: {
          tick: {
            async *subscribe() {
              yield { tick: 1 };
              throw failure;
            },
          },
        },
      },
    }),
    logging: false,
    maskedErrors: { maskError: (error) => maskError(error, (cause) => logged.push(cause)) },
    plugins: [useRequestErrorFormat()],
  });
  /** The stream's frames, pings left out, once it ended. */
  const framesOf = async (error: unknown) => {
    failure = error;
    logged.length = 0;
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { tick }' }),
    });
    return (await response.text()).split('\n\n').filter((frame) => frame !== '' && frame !== ':');
  };
  const resultOf = (frame: string | undefined) =>
    JSON.parse(frame?.replace(/^event: next\ndata: /, '') ?? '');

  it('sends our failure as a last result, with its code and guidance, then completes', async () => {
    const frames = await framesOf(new StagegraphError('SESSION_LOST', 'Replica b is gone.'));
    expect(frames).toHaveLength(3);
    expect(resultOf(frames[0])).toEqual({ data: { tick: 1 } });
    expect(resultOf(frames[1])).toEqual({
      errors: [
        {
          message: 'Replica b is gone.',
          extensions: {
            code: 'SESSION_LOST',
            hint: ERROR_CODES.SESSION_LOST.hint,
            retryable: ERROR_CODES.SESSION_LOST.retryable,
            nextActions: [],
          },
        },
      ],
    });
    expect(frames[2]).toBe('event: complete\ndata:');
    expect(logged).toEqual([]);
  });

  it('sends a bug of ours as INTERNAL, without its message or stack, logs it, then completes', async () => {
    const bug = new TypeError('cannot read /home/secret/file');
    const frames = await framesOf(bug);
    expect(frames).toHaveLength(3);
    expect(resultOf(frames[1]).errors).toEqual([
      {
        message: 'Unexpected error.',
        extensions: expect.objectContaining({ code: 'INTERNAL', hint: ERROR_CODES.INTERNAL.hint }),
      },
    ]);
    expect(frames.join('\n')).not.toMatch(/secret|TypeError|error-format\.test/);
    expect(frames[2]).toBe('event: complete\ndata:');
    expect(logged).toEqual([bug]);
  });
});
