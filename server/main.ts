import { runCli } from './cli.js';
import { boundShutdown } from './shutdown-bound.js';

boundShutdown((line) => process.stderr.write(`${line}\n`));
const argv = process.argv.slice(2);
process.exitCode =
  argv[0] === 'mcp' ? await (await import('../mcp/cli.js')).runMcp(argv.slice(1)) : await runCli(argv);
// Playwright's handlers keep a listener on the process; leave no doubt the gateway is done.
process.exit();
