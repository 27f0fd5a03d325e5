import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ClusterEvents } from '../domain/cluster/cluster-events.js';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import type { ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { Governance } from '../domain/governance/governance.js';
import { readsInClear } from '../domain/governance/redaction/reveal.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { mcpRoute } from '../mcp/http-route.js';
import type { GatewayContext } from '../schema/context.js';
import { buildSchema } from '../schema/index.js';
import { loadPlugins } from '../schema/plugins/plugin-loader.js';
import { UNGOVERNED_REDACTOR } from '../schema/reveal.js';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import { createCdpTransport } from '../transports/cdp/cdp-transport.js';
import type { Transport } from '../transports/contract/transport-contract.js';
import { createInspectorTransport } from '../transports/inspector/inspector-transport.js';
import { createPlaywrightElectronTransport } from '../transports/playwright-electron/playwright-electron-transport.js';
import { appIsolation } from '../transports/process/isolation.js';
import { keepLoopbackWebSocketsUncompressed } from '../transports/process/uncompressed-websockets.js';
import { artifactsRoute, isArtifactsPath } from './artifacts-route.js';
import { authenticator, useClientAuth } from './auth.js';
import { useClientSubscriptions } from './client-subscriptions.js';
import { joinCluster, type OpenedCluster, openCluster, openClusterEvents } from './cluster-membership.js';
import { useCompiledQueries } from './compiled-queries.js';
import { clientDirectory, type ServeConfig } from './config.js';
import { DocumentCache, useDocumentCache } from './document-cache.js';
import { useDocumentLimits } from './document-limits.js';
import { maskError, useRequestErrorFormat } from './error-format.js';
import { graphiqlPage } from './graphiql-page.js';
import { attachGraphqlWs } from './graphql-ws.js';
import { observerPage } from './observer-page.js';
import { ownerPassthrough } from './owner-passthrough.js';
import { ownersAnswer, type PlacedRequests, replicaForwarder, useOwnerRouting } from './owner-routing.js';
import { useQueryLimits } from './query-limits.js';
import { answerUnreadableRequests, refuse } from './refusal.js';
import { guardPolicy, guardRequest, maxHeaderBytes } from './request-guard.js';
import { useRequestParsing } from './request-parsing.js';
import { withoutGatewaySecrets } from './serve-flags.js';
import { useSseRelay } from './sse-relay.js';
import { SubscriptionRelay } from './subscription-relay.js';

export const GRAPHQL_PATH = '/graphql';
/** How long an idle HTTP keep-alive connection stays open. */
const IDLE_CONNECTION_MS = 65_000;
/**
 * The idle time clients are told (`Keep-Alive: timeout=`). A client that honours it (fetch/undici closes
 * a second before it) is done with an idle connection a minute before the server closes it, so its next
 * request never meets a closing socket however late a loaded machine sends it.
 */
export const ADVERTISED_IDLE_SECONDS = 5;

export interface GatewayDeps {
  readonly config: ServeConfig;
  /** Defaults to the launch (Playwright Electron), attach (CDP), inject (inspector) and desktop (AT-SPI) transports, from `config`. */
  readonly transports?: readonly Transport[];
  readonly log?: (message: string) => void;
  /**
   * 'off' builds the gateway without the chokepoint (no policy, approvals, audit or rate limit): only
   * for a benchmark's reference run, never reachable from the command line.
   */
  readonly governance?: 'on' | 'off';
}

export interface Gateway {
  readonly sessions: SessionRegistry;
  /** The event fan-out every subscription reads from. */
  readonly hub: EventHub<SessionTopics>;
  /** Policy, approvals and audit; null before start and in a gateway built with governance off. */
  readonly governance: Governance | null;
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
  // Every DevTools connection the transports open on this machine: inflating each message cost more CPU
  // than everything else the gateway does with a console line.
  keepLoopbackWebSocketsUncompressed();
  const appEnvironment = withoutGatewaySecrets(process.env);
  const isolation = appIsolation(config.appIsolation ?? 'off');
  const transports = deps.transports ?? [
    createPlaywrightElectronTransport({
      environment: appEnvironment,
      isolation,
      ...(config.electron ? { configuredElectron: config.electron } : {}),
    }),
    createCdpTransport({
      environment: appEnvironment,
      allowRemoteHosts: config.allowRemoteCdp === true,
      isolation,
    }),
    createInspectorTransport(),
    createAtspiTransport({ environment: appEnvironment, isolation }),
  ];
  const sessions = new SessionRegistry(transports, hub, {
    artifactsDir: config.artifactsDir,
    uploadRoots: config.uploadRoots,
  });
  const authenticate = authenticator(clientDirectory(config));
  const identities = new WeakMap<Request, ClientIdentity>();
  /** Sent with, and required of, every call between replicas: forwards, relays and their receivers. */
  const clusterSecret = config.cluster?.secret ?? null;
  let governance: Governance | null = null;
  let cluster: Cluster | null = null;
  let opened: OpenedCluster | null = null;
  let clusterEvents: ClusterEvents | null = null;
  let temporaryAuditDir: string | undefined;
  const context = (initial: {
    request?: Request;
    client?: ClientIdentity;
    abandoned?: AbortSignal;
    authorization?: string | null;
  }): GatewayContext => {
    // graphql-ws passes the client it identified at connection_init and its socket's close; HTTP requests
    // were identified by the auth plugin before yoga built this context, and their signal aborts when the
    // response is cut off before it was sent.
    const client = initial.client ?? (initial.request && identities.get(initial.request));
    if (!client) throw new StagegraphError('UNAUTHENTICATED', 'The request was not identified.');
    const abandoned = initial.abandoned ?? initial.request?.signal;
    return {
      sessions,
      hub,
      client,
      governance,
      cluster,
      clusterEvents,
      auditCheckpoints: opened?.checkpoints ?? null,
      // The credential the caller presented: its HTTP header, or graphql-ws's connection_init.
      forwardToReplica: cluster
        ? replicaForwarder(
            cluster,
            clusterSecret,
            initial.authorization ?? initial.request?.headers.get('authorization') ?? null,
          )
        : null,
      ...(abandoned ? { abandoned } : {}),
    };
  };
  const policy = guardPolicy(config);
  const relay = new SubscriptionRelay(() => cluster, clusterSecret);
  const documents = new DocumentCache();
  const placed: PlacedRequests = new WeakMap();
  // Built in start(), once the plugins named with --plugin are loaded: the schema includes their fields.
  const serveSchema = (schema: GraphQLSchema) =>
    createYoga<Record<string, unknown>, GatewayContext>({
      schema,
      graphqlEndpoint: GRAPHQL_PATH,
      context,
      landingPage: false,
      // Requests from foreign origins never reach yoga (request-guard); these are the only ones CORS names.
      cors: { origin: [...policy.allowedOrigins], credentials: true },
      // Served compressed by graphiqlPage, before yoga.
      graphiql: false,
      maxRequestBodySize: policy.maxRequestBytes,
      maskedErrors: {
        maskError: (error) => maskError(error, (cause) => log(`unexpected error: ${String(cause)}`)),
      },
      plugins: [
        useClientAuth(authenticate, identities),
        useRequestParsing(),
        useDocumentLimits(),
        useRequestErrorFormat(),
        ...useQueryLimits(),
        useCompiledQueries(),
        useClientSubscriptions(),
        useSseRelay(relay),
        useOwnerRouting(() => cluster, clusterSecret, placed),
        useDocumentCache(documents),
      ],
      logging: false,
      // Bounded by count and text, and valid documents only: see document-cache.ts.
      parserAndValidationCache: false,
    });
  let yoga: ReturnType<typeof serveSchema> | undefined;
  let schema: GraphQLSchema | undefined;
  const serveGraphql = ownerPassthrough(
    {
      cluster: () => cluster,
      schema: () => schema,
      secret: clusterSecret,
      authenticate,
      documents,
      placed,
      graphqlPath: GRAPHQL_PATH,
    },
    (request, response) => void yoga?.(request, response),
  );
  let ws: ReturnType<typeof attachGraphqlWs> | undefined;
  const artifacts = artifactsRoute(
    config.artifactsDir,
    authenticate,
    (id) => sessions.find(id)?.artifacts.settled() ?? Promise.resolve(),
    {
      readsClear: (client) => readsInClear(client, governance?.policy.reveal ?? 'AGENT'),
      redact: (text) => (governance?.redactor ?? UNGOVERNED_REDACTOR).redactWhole(text),
    },
  );
  const graphiql = graphiqlPage(GRAPHQL_PATH);
  const observer = observerPage({ log });
  const mcp = mcpRoute({
    graphqlPath: GRAPHQL_PATH,
    execute: (request, ctx) => (yoga ? yoga.fetch(request, ctx) : Response.error()),
    authenticate,
    maxRequestBytes: policy.maxRequestBytes,
    log,
  });
  const server: Server = createServer({ maxHeaderSize: maxHeaderBytes(policy) }, (request, response) => {
    response.setHeader('Keep-Alive', `timeout=${ADVERTISED_IDLE_SECONDS}`);
    const readsNoBody = isArtifactsPath(request.url);
    const refusal = guardRequest(
      { method: request.method ?? 'GET', url: request.url, headers: request.headers, readsNoBody },
      policy,
    );
    if (refusal) refuse(response, refusal);
    else if (
      !observer(request, response) &&
      !graphiql(request, response) &&
      !artifacts(request, response) &&
      !mcp(request, response)
    )
      serveGraphql(request, response);
  });
  // By default Node closes an idle keep-alive connection at the very idle time it tells clients, and a
  // client on a loaded machine can send its next request on it just as it closes (ECONNRESET, seen in the
  // launch storm): connections are kept a minute past the idle time clients are told.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  answerUnreadableRequests(server);
  const attachWs = (served: NonNullable<typeof yoga>) =>
    attachGraphqlWs(server, served, GRAPHQL_PATH, authenticate, {
      guard: (request) =>
        guardRequest(
          { method: 'GET', url: request.url, headers: request.headers, readsNoBody: true },
          policy,
        ),
      keepAliveMs: config.keepAliveMs,
      maxPayload: policy.maxRequestBytes,
      logUnexpected: (cause) => log(`unexpected error: ${String(cause)}`),
      relay,
      owners: ownersAnswer(() => cluster, clusterSecret),
    });
  let url = '';
  let stopping: Promise<void> | undefined;

  return {
    sessions,
    hub,
    get url() {
      return url;
    },
    get governance() {
      return governance;
    },
    async start() {
      // A plugin that cannot be loaded or registered fails the start (PLUGIN_FAILED), before anything listens.
      const plugins = await loadPlugins(config.plugins ?? []);
      schema = buildSchema({ allowEval: config.allowEval, plugins });
      yoga = serveSchema(schema);
      ws = attachWs(yoga);
      if (deps.governance !== 'off')
        ({ governance, temporaryAuditDir } = await openGovernance(config, sessions, log));
      if (config.cluster) {
        opened = await openCluster(config.cluster, sessions, hub, log, governance);
        cluster = opened.cluster;
        clusterEvents = await openClusterEvents(config.cluster, cluster, hub, log, governance);
      }
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => resolve());
      }).catch(async (error: unknown) => {
        await governance?.close();
        throw error;
      });
      const { port } = server.address() as AddressInfo;
      sessions.ownPages.serveAt(port, config.host, config.allowedHosts);
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      url = `http://${host}:${port}${GRAPHQL_PATH}`;
      if (opened && clusterEvents) await joinCluster(opened, clusterEvents, url, log);
      return url;
    },
    stop() {
      stopping ??= (async () => {
        await sessions.stopAll();
        // Requests still pending here end with the lease: the other replicas' answers then read SESSION_LOST.
        await opened?.approvals?.stop();
        // The directory records how each session ended before the lease is dropped.
        await cluster?.leave();
        // The sessions' last events are in their streams before the connection closes.
        await clusterEvents?.close();
        // After the sessions: operations they were running finish, and are recorded, first.
        await governance?.close();
        if (temporaryAuditDir) await rm(temporaryAuditDir, { recursive: true, force: true });
        hub.closeAll();
        await mcp.close();
        await ws?.close();
        await yoga?.dispose();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return stopping;
    },
  };
}

/**
 * A gateway configured with no audit folder (tests, benchmarks) audits to a temporary one of its own, so
 * two gateways never write one chain. A bad policy file or a broken audit chain fails the start here,
 * before anything listens.
 */
async function openGovernance(
  config: ServeConfig,
  sessions: SessionRegistry,
  log: (message: string) => void,
): Promise<{ governance: Governance; temporaryAuditDir: string | undefined }> {
  const temporaryAuditDir = config.auditDir ? undefined : await mkdtemp(join(tmpdir(), 'stagegraph-audit-'));
  try {
    const governance = await Governance.open({
      sessions,
      policyFile: config.policyFile ?? null,
      auditDir: config.auditDir ?? (temporaryAuditDir as string),
      approvalTimeoutMs: config.approvalTimeoutMs ?? null,
      // Bursts of twice the rate, the limiter's own default ratio: a fill-then-click sent at once passes.
      ...(config.mutationsPerSecond
        ? { rateLimit: { perSecond: config.mutationsPerSecond, burst: 2 * config.mutationsPerSecond } }
        : {}),
      log,
    });
    return { governance, temporaryAuditDir };
  } catch (error) {
    if (temporaryAuditDir) await rm(temporaryAuditDir, { recursive: true, force: true });
    throw error;
  }
}
