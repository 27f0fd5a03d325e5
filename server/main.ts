import { runCli } from './cli.js';
import { boundShutdown } from './shutdown-bound.js';

boundShutdown((line) => process.stderr.write(`${line}\n`));
process.exitCode = await runCli(process.argv.slice(2));
// Playwright's handlers keep a listener on the process; leave no doubt the gateway is done.
process.exit();
