// `stagegraph query '<document>'`: one GraphQL operation over HTTP, its JSON answer on stdout. What a
// shell script or CI step uses instead of curl: exit 0 on a clean answer, 1 when it carries errors or no
// answer came, 2 on a usage mistake.
import { parseClientArgs, SHARED_OPTIONS_HELP, withUsage } from './options.js';

export const QUERY_USAGE = `Usage: stagegraph query <document> [options]

Sends one query or mutation to a running gateway over HTTP and prints its JSON answer.
Exits 0 when the answer has no errors, 1 when it has (or no answer came), 2 on a usage mistake.

Options:
${SHARED_OPTIONS_HELP}

Example:
  stagegraph query '{ sessions { id status } }'`;

/**
 * @param {readonly string[]} argv the arguments after `query`
 * @returns {Promise<number>} the exit code
 */
export function runQuery(argv) {
  return withUsage(QUERY_USAGE, async () => {
    const options = parseClientArgs(argv);
    if (options.help) {
      process.stdout.write(`${QUERY_USAGE}\n`);
      return 0;
    }
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: options.query,
          ...(options.variables ? { variables: options.variables } : {}),
          ...(options.operationName ? { operationName: options.operationName } : {}),
        }),
      });
    } catch (error) {
      process.stderr.write(`Cannot reach the gateway at ${options.url}: ${reason(error)}\n`);
      return 1;
    }
    const text = await response.text();
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      process.stderr.write(
        `${options.url} answered HTTP ${response.status} without a GraphQL answer: ${text.slice(0, 200)}\n`,
      );
      return 1;
    }
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    const failed = !response.ok || (Array.isArray(answer?.errors) && answer.errors.length > 0);
    return failed ? 1 : 0;
  });
}

/** @param {unknown} error */
function reason(error) {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket's error ("fetch failed"); the cause says what happened (ECONNREFUSED ...).
  const cause = /** @type {{ cause?: unknown }} */ (error).cause;
  return cause instanceof Error ? cause.message : error.message;
}
