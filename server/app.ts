import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga } from 'graphql-yoga';
import { EventHub } from '../resolvers/events/event-hub.js';
import type { SessionTopics } from '../resolvers/sessions/session-event.js';
import { SessionRegistry } from '../resolvers/sessions/session-registry.js';
import type { GatewayContext } from '../schema/context.js';
import { buildSchema } from '../schema/index.js';
import type { LaunchTransport } from '../transports/contract.js';
import { createPlaywrightElectronTransport } from '../transports/playwright-electron/transport.js';
import { useTokenAuth } from './auth.js';
import type { ServeConfig } from './config.js';
import { maskError } from './error-format.js';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default.js';
import { attachGraphqlWs } from './graphql-ws.js';

export const GRAPHQL_PATH = '/graphql';

export interface GatewayDeps {
  readonly config: ServeConfig;
  /** Defaults to the Playwright Electron transport configured from `config`. */
  readonly transports?: readonly LaunchTransport[];
  readonly log?: (message: string) => void;
}

export interface Gateway {
  readonly sessions: SessionRegistry;
  /** The event fan-out every subscription reads from. */
  readonly hub: EventHub<SessionTopics>;
  /** The HTTP and WebSocket URL of the GraphQL endpoint, once started. */
  readonly url: string;
  start(): Promise<string>;
  /** Stops every session, closes subscriptions and sockets; safe to call twice. */
  stop(): Promise<void>;
}

/** Wires the schema to HTTP (yoga, SSE included) and WebSocket (graphql-ws) on one port and path. */
export function createGateway(deps: GatewayDeps): Gateway {
  const { config } = deps;
  const log = deps.log ?? ((message: string) => console.error(message));
  const hub = new EventHub<SessionTopics>();
  const transports = deps.transports ?? [
    createPlaywrightElectronTransport(config.electron ? { configuredElectron: config.electron } : {}),
  ];
  const sessions = new SessionRegistry(transports, hub, {
    artifactsDir: config.artifactsDir,
    uploadRoots: config.uploadRoots,
  });
  const context: GatewayContext = { sessions, hub };
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: GRAPHQL_PATH,
    context,
    landingPage: false,
    renderGraphiQL,
    graphiql: { title: 'Stagegraph', subscriptionsProtocol: 'WS', defaultQuery: GRAPHIQL_DEFAULT_QUERY },
    maskedErrors: {
      maskError: (error) => maskError(error, (cause) => log(`unexpected error: ${String(cause)}`)),
    },
    plugins: [useTokenAuth(config.token)],
    logging: false,
  });
  const server: Server = createServer(yoga);
  const ws = attachGraphqlWs(server, yoga, GRAPHQL_PATH, config.token);
  let url = '';
  let stopping: Promise<void> | undefined;

  return {
    sessions,
    hub,
    get url() {
      return url;
    },
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      url = `http://${host}:${port}${GRAPHQL_PATH}`;
      return url;
    },
    stop() {
      stopping ??= (async () => {
        await sessions.stopAll();
        hub.closeAll();
        await ws.close();
        await yoga.dispose();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return stopping;
    },
  };
}
