import type { ErrorCodeInfo } from './error-code-info.js';

/**
 * The registry's codes for requests the client got wrong before any field ran: unreadable, not GraphQL,
 * not fitting the schema or its variables' types, or over a size limit. Never retryable: the same request
 * fails the same way. Part of ERROR_CODES (registry.ts), kept apart so that table stays readable.
 */
export const REQUEST_ERROR_CODES = {
  BAD_REQUEST: {
    meaning:
      'The HTTP request is not a GraphQL request the server can read: the body or a GET parameter (`variables`, `extensions`) is not valid JSON, a parameter has the wrong type, the query is missing, the operation to run is not named, or a GET asks for a mutation.',
    retryable: false,
    hint: 'POST a JSON body `{"query": "...", "variables": {...}, "operationName": "..."}`; with GET, URL-encode `query` and put JSON in `variables`; name the operation when the document holds several.',
  },
  GRAPHQL_PARSE_FAILED: {
    meaning: 'The document is not valid GraphQL syntax; the message and `locations` say where.',
    retryable: false,
    hint: 'Fix the syntax at the line and column in `locations` (a missing closing brace or quote is the usual cause) and send it again.',
  },
  GRAPHQL_VALIDATION_FAILED: {
    meaning:
      'The document does not fit the schema: an unknown field, argument, input field or type, an argument of the wrong type, a required argument missing, or a variable used where its type does not fit.',
    retryable: false,
    hint: 'Read the message for the name that is wrong; `nextActions` introspects the type it names. The schema is served at GET /graphql (GraphiQL) and in schema.graphql.',
  },
  VARIABLES_INVALID: {
    meaning:
      "A variable's value does not fit its declared type: the wrong type, null or missing for a non-null variable, or an input object with an unknown or missing field.",
    retryable: false,
    hint: 'Send the variable with the type its declaration names (`$v: String!` takes a JSON string); the message names the variable and the part that does not fit.',
  },
  REQUEST_TOO_LARGE: {
    meaning:
      'The request is over a size the server refuses before reading it: its body, query string or WebSocket message is over the byte limit (`--max-request-bytes`), its document has too many tokens, or its document or variables nest too deeply. The message names the limit.',
    retryable: false,
    hint: 'Send less: split the work into several operations, or pass large content by reference (a file under the upload roots). `stagegraph serve --help` lists the limits.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
