import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import type { ServeConfig } from '../../server/config.js';
import { ClickDocument, LaunchDocument } from '../generated/graphql.js';
import { fixtureLaunch } from './fixture-app.js';
import { type RunningGateway, type Subscription, startGateway, subscribe, wsClient } from './gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './gateway-client.js';

export const AGENT_TOKEN = 'agent-e2e-7f3c91d2';
export const APPROVER_TOKEN = 'approver-e2e-b4e08a66';
export const OBSERVER_TOKEN = 'observer-e2e-5d21c0e9';

/** One side of a governed run: an HTTP sender and a graphql-ws connection, both carrying one token. */
export interface TokenClient extends GatewayClient {
  readonly ws: Client;
  watch(query: string): Subscription<Loose>;
}

export function tokenClient(gateway: RunningGateway, token: string | undefined): TokenClient {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const ws = wsClient(gateway.wsUrl, token ? { authorization: `Bearer ${token}` } : undefined);
  return {
    ...gatewayClient(gateway.url, headers),
    ws,
    watch: (query) => subscribe<Loose, Record<string, unknown>>(ws, parse(query)),
  };
}

export interface GovernedRun {
  readonly gateway: RunningGateway;
  readonly auditDir: string;
  readonly agent: TokenClient;
  readonly approver: TokenClient;
  /** The fixture app's session, when one was launched. */
  readonly sessionId: string | null;
  /** Stops the gateway and closes both clients; the audit folder is kept for `cleanup`. */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * A gateway with agent and approver tokens and its own audit folder, optionally with the fixture app
 * launched (by the agent) and its ticking stopped so the page holds still.
 */
export async function startGovernedRun(
  overrides: Partial<ServeConfig> = {},
  options: { launch?: boolean } = {},
): Promise<GovernedRun> {
  const auditDir = overrides.auditDir ?? (await mkdtemp(join(tmpdir(), 'stagegraph-audit-e2e-')));
  const gateway = await startGateway({
    token: AGENT_TOKEN,
    approverToken: APPROVER_TOKEN,
    auditDir,
    ...overrides,
  });
  const agent = tokenClient(gateway, AGENT_TOKEN);
  const approver = tokenClient(gateway, APPROVER_TOKEN);
  let sessionId: string | null = null;
  if (options.launch ?? true) {
    const { launch } = await agent.data(LaunchDocument, { input: fixtureLaunch() });
    sessionId = launch!.id;
    await agent.data(ClickDocument, { target: { testId: 'stop-ticking' } });
  }
  return {
    gateway,
    auditDir,
    agent,
    approver,
    sessionId,
    async stop() {
      await Promise.all([agent.ws.dispose(), approver.ws.dispose()]);
      await gateway.stop();
    },
    cleanup: () => rm(auditDir, { recursive: true, force: true }),
  };
}

/** Resolves once the gateway counts `count` approvers watching (a subscription is live only then). */
export async function approversWatching(run: GovernedRun, count: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (run.gateway.gateway.governance?.broker.approverCount !== count) {
    if (Date.now() > deadline) throw new Error(`${count} approvers never watched`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The next PENDING approval request on `approvals` that is not in `answered` (which it is then added to),
 * so a test answers each request once however many events the stream repeats.
 */
export async function nextPendingApproval(
  approvals: Subscription<Loose>,
  answered: Set<string>,
): Promise<Loose> {
  const event = await approvals.waitFor(
    (value) => value.approvalRequests.state === 'PENDING' && !answered.has(value.approvalRequests.request.id),
  );
  answered.add(event.approvalRequests.request.id);
  return event.approvalRequests.request;
}
