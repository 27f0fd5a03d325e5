// The arguments `stagegraph query` and `stagegraph watch` share: where the document comes from, its
// variables, and which gateway to ask with which token. Plain JavaScript importing only Node and the flag
// table, so a shell script's one-shot call starts neither tsx nor the server.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SERVE_FLAGS } from '../server/serve-flags.js';

export const DEFAULT_URL = `http://127.0.0.1:${SERVE_FLAGS.port.fallback}/graphql`;

/** A mistake in how the command was called: said on stderr with the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * @typedef {object} ClientOptions
 * @property {string} query the GraphQL document
 * @property {Record<string, unknown> | undefined} variables
 * @property {string | undefined} operationName
 * @property {string} url the gateway's GraphQL endpoint (http or https)
 * @property {string | undefined} token
 * @property {boolean} help
 * @property {Record<string, string | boolean | undefined>} extra the command's own options
 */

export const SHARED_OPTIONS_HELP = `  --variables <json>     variables as a JSON object, or @file.json
  --operation <name>     which operation to run when the document holds several
  --url <url>            the gateway's GraphQL endpoint (env STAGEGRAPH_URL, default ${DEFAULT_URL})
  --token <secret>       sent as "Authorization: Bearer <secret>" (env STAGEGRAPH_TOKEN)
  --help                 this text

The document is the first argument: GraphQL text, @file.graphql to read a file, or - to read stdin.`;

/**
 * @param {readonly string[]} argv the arguments after the command's name
 * @param {Record<string, { type: 'string' | 'boolean' }>} [ownOptions]
 * @param {NodeJS.ProcessEnv} [environment]
 * @returns {ClientOptions}
 */
export function parseClientArgs(argv, ownOptions = {}, environment = process.env) {
  const { values, positionals } = parseCommandLine(argv, {
    variables: { type: 'string' },
    operation: { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    ...ownOptions,
  });
  const extra = Object.fromEntries(Object.keys(ownOptions).map((name) => [name, values[name]]));
  if (values.help) {
    return {
      query: '',
      variables: undefined,
      operationName: undefined,
      url: '',
      token: undefined,
      help: true,
      extra,
    };
  }
  if (positionals.length === 0) throw new UsageError('No GraphQL document given.');
  if (positionals.length > 1)
    throw new UsageError(`One document only; got ${positionals.length} arguments (quote the document).`);
  const query = readSource(/** @type {string} */ (positionals[0]), 'document').trim();
  if (query === '') throw new UsageError('The GraphQL document is empty.');
  if (values.operation === undefined) requireOneOperation(query);
  return {
    query,
    variables: values.variables === undefined ? undefined : parseVariables(values.variables),
    operationName: values.operation,
    url: gatewayUrl(values.url ?? environment.STAGEGRAPH_URL ?? DEFAULT_URL),
    token: values.token ?? (environment.STAGEGRAPH_TOKEN || undefined),
    help: false,
    extra,
  };
}

/**
 * A command's arguments, read strictly: an unknown flag or a missing value is a UsageError.
 * @template {import('node:util').ParseArgsOptionsConfig} T
 * @param {readonly string[]} argv
 * @param {T} options
 */
export function parseCommandLine(argv, options) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * A document of several operations needs --operation: without it the gateway could only refuse it, and
 * the mistake is in how the command was called. The operations are counted by a scan of the top level
 * (strings, block strings and comments skipped) rather than by graphql's parser, which this command does
 * not load; a document that does not parse is the gateway's to answer, with its code.
 * @param {string} query
 */
function requireOneOperation(query) {
  /** @type {string[]} */
  const names = [];
  let depth = 0;
  // After `query Name`, `fragment F on T`…: the next top-level `{` opens that definition's selection.
  let named = false;
  for (let at = 0; at < query.length; ) {
    const char = query[at] ?? '';
    if (query.startsWith('"""', at)) at = endOf(query, '"""', at + 3);
    else if (char === '"') at = endOfString(query, at + 1);
    else if (char === '#') at = endOf(query, '\n', at + 1);
    else if ('{('.includes(char)) {
      if (char === '{' && depth === 0 && !named) names.push('(anonymous)');
      if (char === '{' && depth === 0) named = false;
      depth += 1;
      at += 1;
    } else if ('})'.includes(char)) {
      depth -= 1;
      at += 1;
    } else if (depth === 0 && /[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_]\w*/.exec(query.slice(at, at + 64))?.[0] ?? char;
      if (['query', 'mutation', 'subscription'].includes(word) && !named) {
        names.push(
          /^\s*([A-Za-z_]\w*)/.exec(query.slice(at + word.length, at + word.length + 200))?.[1] ??
            '(anonymous)',
        );
        named = true;
      } else if (word === 'fragment' && !named) named = true;
      at += word.length;
    } else at += 1;
  }
  if (names.length > 1)
    throw new UsageError(
      `The document holds ${names.length} operations (${names.join(', ')}): name one with --operation.`,
    );
}

/**
 * Where the text after `from` that ends with `end` stops (the whole text when it never ends).
 * @param {string} text
 * @param {string} end
 * @param {number} from
 */
function endOf(text, end, from) {
  const found = text.indexOf(end, from);
  return found === -1 ? text.length : found + end.length;
}

/**
 * Where a quoted string whose body starts at `from` ends, its escapes skipped.
 * @param {string} text
 * @param {number} from
 */
function endOfString(text, from) {
  let at = from;
  while (at < text.length && text[at] !== '"' && text[at] !== '\n') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/**
 * Text given inline, as @path, or as - for stdin.
 * @param {string} argument
 * @param {string} what
 */
function readSource(argument, what) {
  if (argument === '-') return readFileSync(0, 'utf8');
  if (!argument.startsWith('@')) return argument;
  try {
    return readFileSync(argument.slice(1), 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`Cannot read the ${what} from ${argument.slice(1)}: ${reason}`);
  }
}

/** @param {string} argument */
function parseVariables(argument) {
  const text = readSource(argument, 'variables');
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--variables is not valid JSON (${reason}).`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError('--variables must be a JSON object, such as {"id": "s1"}.');
  return /** @type {Record<string, unknown>} */ (value);
}

/** @param {string} text */
function gatewayUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url is not a URL: "${text}".`);
  }
  // A WebSocket address names the same endpoint: the gateway serves both on one path.
  if (url.protocol === 'ws:' || url.protocol === 'wss:')
    url.protocol = url.protocol === 'ws:' ? 'http:' : 'https:';
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be an http(s) or ws(s) address, got "${text}".`);
  return url.href;
}

/**
 * Runs a command's body, turning a UsageError into its message and usage on stderr with exit code 2.
 * @param {string} usage
 * @param {() => Promise<number>} body
 * @returns {Promise<number>}
 */
export async function withUsage(usage, body) {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage}\n`);
    return 2;
  }
}
