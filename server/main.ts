import { boundShutdown } from './shutdown-bound.js';

boundShutdown((line) => process.stderr.write(`${line}\n`));
const argv = process.argv.slice(2);
// Each command loads only its own code: `mcp --url` is a client of a running gateway, and loading the
// server's transports (Playwright among them) cost it seconds before it answered `initialize`.
process.exitCode =
  argv[0] === 'mcp'
    ? await (await import('../mcp/cli.js')).runMcp(argv.slice(1))
    : await (await import('./cli.js')).runCli(argv);
// Playwright's handlers keep a listener on the process; leave no doubt the gateway is done.
process.exit();
