import { StagegraphError } from '../errors/stagegraph-error.js';
import { appIsolation } from '../transports/process/isolation.js';
import { createGateway } from './app.js';
import { normaliseArgv, parseServeArgs, USAGE } from './config.js';
import { approverInstructions, type Demo, launchDemo, withDemoApprover } from './demo.js';
import { secureServeSecrets } from './secrets.js';
import { keepServingThroughStrayErrors } from './stray-errors.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

const FIRST_STEPS = (url: string) => `Stagegraph is serving GraphQL at ${url}
  Observer page:       open ${new URL('/', url).href} in a browser (live view, steps, tails, approvals, audit)
  GraphiQL (offline):  open ${url} in a browser
  WebSocket:           ${url.replace(/^http/, 'ws')} (graphql-ws); SSE on the same URL
  Try:                 { sessions { id status app { name } windows { id title } } }`;

/**
 * `stagegraph serve ...`: runs until SIGINT/SIGTERM, then stops every session and exits. Help, version
 * and unknown commands were answered by bin/stagegraph.js (cli-help.js) before the server loaded.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const rest = argv.slice(1);
  let config: ReturnType<typeof parseServeArgs>;
  try {
    config = parseServeArgs(normaliseArgv(rest));
  } catch (error) {
    const hint = error instanceof StagegraphError ? `\nHint: ${error.hint}` : '';
    log(`${error instanceof Error ? error.message : String(error)}${hint}\n\n${USAGE}`);
    return 2;
  }
  const demoApprover = withDemoApprover(config);
  const secured = secureServeSecrets(demoApprover.config, rest);
  config = secured.config;
  for (const warning of secured.warnings) log(warning);
  try {
    // The probe runs once; `required` refuses here, before anything is bound, where none works.
    log(appIsolation(config.appIsolation ?? 'off').note);
  } catch (error) {
    log(`Cannot start: ${describe(error)}`);
    return 2;
  }
  const gateway = createGateway({ config, log });
  let url: string;
  try {
    url = await gateway.start();
  } catch (error) {
    // A bad policy file, an audit log that cannot be continued, a port in use: say which, and stop.
    log(`Cannot start: ${describe(error)}`);
    await gateway.stop();
    return 2;
  }
  log(FIRST_STEPS(url));
  // From here on an error no handler caught is logged and the server keeps serving; before, it fails the start.
  keepServingThroughStrayErrors(log);

  let demo: Demo | undefined;
  const stopped = new Promise<number>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) resolve(1);
      log(`${signal}: stopping every session...`);
      void Promise.all([gateway.stop(), demo?.close()]).then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  if (config.demo) {
    demo = await launchDemo(gateway.sessions, config, log).catch((error: unknown) => {
      log(`demo launch failed: ${describe(error)}`);
      return undefined;
    });
    if (demo) log(approverInstructions(url, demoApprover.approverToken));
  }
  return stopped;
}

function describe(error: unknown): string {
  return error instanceof StagegraphError
    ? `${error.code}: ${error.message}\nHint: ${error.hint}`
    : String(error);
}
