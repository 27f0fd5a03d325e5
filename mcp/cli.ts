import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { normaliseArgv, parseServeArgs } from '../server/config.js';
import { SERVE_FLAGS } from '../server/serve-flags.js';
import { createBridgeServer } from './bridge-server.js';
import { type GraphqlLink, httpLink } from './graphql-link.js';
import { MCP_USAGE } from './usage.js';
import { BRIDGE_VERSION } from './version.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Target {
  readonly agent: GraphqlLink;
  readonly approver?: GraphqlLink;
  stop(): Promise<void>;
}

/**
 * `stagegraph mcp`: the bridge over stdio, to the gateway at --url or to one started here. Stdout
 * carries the protocol only; everything else goes to stderr. Ends when the host closes stdin.
 */
export async function runMcp(argv: readonly string[]): Promise<number> {
  let target: Target;
  try {
    target = await connect(argv);
  } catch (error) {
    log(`${error instanceof Error ? error.message : String(error)}\n\n${MCP_USAGE}`);
    return 2;
  }
  const server = createBridgeServer({
    link: target.agent,
    ...(target.approver ? { approver: target.approver } : {}),
    version: BRIDGE_VERSION,
    log,
  });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(new StdioServerTransport());
  await ended;
  await server.close().catch(() => {});
  await Promise.all([target.agent.close(), target.approver?.close()]);
  await target.stop();
  return 0;
}

async function connect(argv: readonly string[]): Promise<Target> {
  // Every serve option is declared, so `--electron /path` takes its value as `serve` does; an unknown
  // option is a usage mistake (exit 2) rather than a flag silently read as a boolean.
  const { values, tokens } = parseArgs({
    args: normaliseArgv(argv),
    strict: true,
    allowPositionals: false,
    tokens: true,
    options: { ...SERVE_FLAGS, url: { type: 'string' } },
  });
  if (typeof values.url === 'string') {
    const token = typeof values.token === 'string' ? values.token : process.env.STAGEGRAPH_TOKEN;
    const approverToken = values['approver-token'];
    return {
      agent: httpLink(values.url, token),
      ...(typeof approverToken === 'string' ? { approver: httpLink(values.url, approverToken) } : {}),
      stop: async () => {},
    };
  }
  // In-process: the bridge's user is the only approver, with tokens made for this run.
  const serveArgs = tokens
    .filter((token) => token.kind === 'option' && !['url', 'token', 'approver-token'].includes(token.name))
    .flatMap((token) =>
      token.kind === 'option' ? [token.rawName, ...(token.value === undefined ? [] : [token.value])] : [],
    );
  const agentToken = randomBytes(18).toString('base64url');
  const approverToken = randomBytes(18).toString('base64url');
  const config = {
    ...parseServeArgs(['--host', '127.0.0.1', '--port', '0', ...serveArgs]),
    token: agentToken,
    approverToken,
  };
  // Loaded here only: with --url the bridge is a client, and the server's transports are not its to load.
  const { createGateway } = await import('../server/app.js');
  const gateway = createGateway({ config, log });
  const url = await gateway.start().catch(async (error: unknown) => {
    await gateway.stop();
    throw error;
  });
  log(`stagegraph mcp: gateway in this process at ${url}`);
  return {
    agent: httpLink(url, agentToken),
    approver: httpLink(url, approverToken),
    stop: () => gateway.stop(),
  };
}
