// The sizes every request is held to before the gateway works on it, in one table that the server applies
// and `stagegraph serve --help` prints. Plain JavaScript with JSDoc types, like serve-flags.js, so the help
// answers without TypeScript or the server.

/**
 * The most bytes one request may carry: an HTTP body (POST /graphql, POST /mcp), a GET query string, or one
 * graphql-ws message. An agent's largest legitimate arguments are a stub's response body and a storage value
 * (files are uploaded by path, never by content); a mebibyte holds a large JSON fixture. Raised with
 * `--max-request-bytes` for larger stub bodies.
 */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * The most lexical tokens one document may hold, counted before it is parsed. The largest documents the
 * gateway's own clients send (a session read with every field, GraphiQL's introspection) hold under 200; a
 * fifty-step MCP `act` about 2,200. Validation compares every pair of fields under one response name, so
 * its cost grows with the square of the document: the worst document of this size (400 fragments each
 * selecting `a: sessions { id }`) takes about 0.12 s of CPU to validate, 160 of them 0.04 s.
 */
export const MAX_DOCUMENT_TOKENS = 5_000;

/**
 * How deeply brackets may nest in a document (selections, arguments, list and object values) or in its
 * variables. GraphQL's parser and variable coercion recurse once per level and overflow the stack near
 * 2,000; legitimate operations nest under 30 (selections stop at MAX_QUERY_DEPTH, a target's `within`
 * chain is a handful deep).
 */
export const MAX_NESTING = 64;

/**
 * session → window → snapshot → node is four levels; twelve leave room to walk `parent` / `children` a
 * good way. A client that needs more of the tree should ask for a flat snapshot, not nest a document.
 */
export const MAX_QUERY_DEPTH = 12;

/**
 * graphql-armor's static cost (objects 2, scalars 1, ×1.5 per level, × `first`). The largest legitimate
 * read, a full page of audit records (`first: 500`) with every field, costs about 76,000; a document past
 * this is built to exhaust the server (thousands of aliased fields), not to read it.
 */
export const MAX_QUERY_COST = 100_000;

/**
 * The limits as `serve --help` lists them.
 * @param {number} maxRequestBytes
 * @returns {string}
 */
export function limitsUsage(maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES) {
  const rows = [
    [
      'request size',
      `${maxRequestBytes} bytes per HTTP body, GET query string or WebSocket message (--max-request-bytes)`,
    ],
    ['document tokens', `${MAX_DOCUMENT_TOKENS} lexical tokens per GraphQL document`],
    ['nesting', `${MAX_NESTING} levels of brackets in a document or its variables`],
    ['query depth', `${MAX_QUERY_DEPTH} levels of selections`],
    ['query cost', `${MAX_QUERY_COST} (static cost: objects 2, scalars 1, x1.5 per level, x first)`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`).join('\n');
}
