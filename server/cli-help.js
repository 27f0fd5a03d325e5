// What `stagegraph` answers before loading the server: help, version and command mistakes. Plain
// JavaScript importing only the flag table, so these answer at once and on stdout.
import { readFileSync } from 'node:fs';
import { MCP_USAGE } from '../mcp/usage.js';
import { serveUsage, TOP_USAGE } from './serve-flags.js';

/**
 * @typedef {{ stream: 'stdout' | 'stderr', text: string, code: number }} QuickAnswer
 */

/**
 * Commands that are GraphQL clients of a running gateway: plain JavaScript modules run without tsx or the
 * server, each exporting the function named here, which takes the arguments after the command and
 * resolves to the exit code (and answers its own --help).
 * @type {Readonly<Record<string, { module: string, run: string }>>}
 */
export const CLIENT_COMMANDS = {
  query: { module: new URL('../cli/query.js', import.meta.url).href, run: 'runQuery' },
  watch: { module: new URL('../cli/watch.js', import.meta.url).href, run: 'runWatch' },
  token: { module: new URL('../cli/token.js', import.meta.url).href, run: 'runToken' },
};

/**
 * The answer to argv when it needs no server, or undefined when it is a `serve` or a client command to run.
 * @param {readonly string[]} argv
 * @returns {QuickAnswer | undefined}
 */
export function quickAnswer(argv) {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    return { stream: 'stdout', text: version(), code: 0 };
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    return { stream: 'stdout', text: TOP_USAGE, code: 0 };
  }
  if (command === undefined) return { stream: 'stderr', text: TOP_USAGE, code: 2 };
  if (Object.hasOwn(CLIENT_COMMANDS, command)) return undefined;
  if (command === 'mcp')
    return rest.includes('--help') || rest.includes('-h')
      ? { stream: 'stdout', text: MCP_USAGE, code: 0 }
      : undefined;
  if (command !== 'serve') {
    return { stream: 'stderr', text: `Unknown command "${command}".\n\n${TOP_USAGE}`, code: 2 };
  }
  if (rest.includes('--help') || rest.includes('-h'))
    return { stream: 'stdout', text: serveUsage(), code: 0 };
  return undefined;
}

function version() {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return `stagegraph ${manifest.version}`;
}
