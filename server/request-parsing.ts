import { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { MAX_NESTING } from './request-limits.js';

/**
 * How deep a request's JSON may nest: the variables' own limit plus the message object around them.
 * Checked on the text, because JSON.parse of a mebibyte of `[` takes 0.4 s of the one thread every client
 * shares.
 */
export const MAX_JSON_NESTING = MAX_NESTING + 1;

/**
 * Whether JSON text (or not JSON at all) opens no more than `max` brackets at once outside its strings:
 * one linear scan. Bytes of UTF-8 scan as the text does: no byte of a multi-byte character is ASCII.
 */
export function jsonNestsWithin(text: string | Uint8Array, max: number): boolean {
  const codeAt = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = codeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return false;
    } else if (char === 0x7d || char === 0x5d) depth -= 1;
  }
  return true;
}

/** JSON the client sent in `where`, parsed once its nesting is known to be bounded; BAD_REQUEST when it is not JSON. */
export function parseClientJson(text: string, where: string): unknown {
  if (!jsonNestsWithin(text, MAX_JSON_NESTING))
    throw new StagegraphError('REQUEST_TOO_LARGE', `${where} nests deeper than ${MAX_NESTING} levels.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StagegraphError('BAD_REQUEST', `${where} is not valid JSON: ${(error as Error).message}`);
  }
}

/** GET /graphql?query=…&variables=…: `variables` and `extensions` must be JSON objects. */
function parseGetRequest(request: Request): GraphQLParams {
  const search = new URL(request.url, 'http://localhost').searchParams;
  const json = (name: string) => {
    const text = search.get(name);
    return text ? (parseClientJson(text, `The \`${name}\` parameter`) as Record<string, unknown>) : undefined;
  };
  return {
    operationName: search.get('operationName') || undefined,
    query: search.get('query') || undefined,
    variables: json('variables'),
    extensions: json('extensions'),
  };
}

/** A POST's JSON body; its size is held by yoga's body limit, which wraps whichever parser is chosen. */
async function parsePostJsonRequest(request: Request): Promise<GraphQLParams> {
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    // The body limit's own refusal (REQUEST_ENTITY_TOO_LARGE), or the client cutting the body short.
    if (error instanceof GraphQLError) throw error;
    throw new StagegraphError('BAD_REQUEST', 'The request body could not be read to its end.');
  }
  const body = parseClientJson(text, 'The request body');
  if (body === null || typeof body !== 'object')
    throw new StagegraphError(
      'BAD_REQUEST',
      `The request body must be a JSON object {"query": ...}, got ${body === null ? 'null' : typeof body}.`,
    );
  return body as GraphQLParams;
}

function isJsonPost(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return request.method === 'POST' && (type === 'application/json' || type === 'application/graphql+json');
}

/**
 * Yoga's GET and JSON parsers with the client's mistakes answered as such: yoga's GET parser lets a
 * JSON.parse SyntaxError escape (answered INTERNAL, retryable), and neither bounds nesting before parsing.
 * Registered after yoga's own parsers, so these are the ones chosen.
 */
export function useRequestParsing(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method === 'GET') setRequestParser(parseGetRequest);
      else if (isJsonPost(request)) setRequestParser(parsePostJsonRequest);
    },
  };
}
