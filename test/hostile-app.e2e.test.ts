import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { appIsolation } from '../transports/process/isolation.js';
import { STAND_IN } from './helpers/fixture-app.js';
import { subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { expectGroupsGone } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const HOSTILE_APP = fileURLToPath(new URL('../fixtures/hostile-app', import.meta.url));
/** The app reads every process and file it can and presents thousands of strings: minutes on a loaded machine. */
const HUNT_TIMEOUT_MS = 240_000;
const ISOLATED_LINE = /launched apps are isolated/;
/** What `stagegraph serve` finds on this machine (the same probe); without it the namespace test is skipped by name. */
const isolation = appIsolation('auto');

interface HuntReport {
  ppid: number;
  visiblePids: number;
  sawGateway: boolean;
  filesRead: number;
  candidates: string[];
  accepted: { token: string; status: number; ws: string }[];
  approvals: unknown[];
}

/** `stagegraph token create`, as an operator runs it: the token on stdout, its hash appended to `file`. */
function createToken(role: string, file: string): string {
  return execFileSync(process.execPath, [BIN, 'token', 'create', '--role', role, '--file', file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * One gateway, one hostile app: the agent clicks the app's "Delete account" (an ASK), and while the approval
 * waits the app hunts for tokens and presents every string it found. Returns what the app reported and
 * what became of the click once the real approver denied it.
 */
async function huntAgainst(
  dir: string,
  gatewayArgs: (files: { agent: string; approver: string; observer: string }) => string[],
  tokens: { agent: string; approver: string },
  reachable: string[],
): Promise<{ server: GatewayProcess; report: HuntReport; click: Loose; pendingWhenDone: Loose[] }> {
  const files = { agent: '', approver: '', observer: '' };
  const server = await serveInChild([
    ...gatewayArgs(files),
    '--artifacts',
    join(dir, 'artifacts'),
    '--audit-dir',
    join(dir, 'audit'),
    // The request must outlast the hunt: only the approver's deny below may end it.
    '--approval-timeout',
    String(HUNT_TIMEOUT_MS + 60_000),
  ]);
  const pgids: number[] = [];
  try {
    const agent = gatewayClient(server.url, { authorization: `Bearer ${tokens.agent}` });
    const approver: GatewayClient = gatewayClient(server.url, { authorization: `Bearer ${tokens.approver}` });
    // An ASK waits only while an approver watches.
    const ws = wsClient(server.wsUrl, { authorization: `Bearer ${tokens.approver}` });
    const watching = subscribe<Loose, Record<string, unknown>>(
      ws,
      parse('subscription { approvalRequests { state request { id operation } } }'),
    );
    const report = join(dir, 'report.json');
    const go = join(dir, 'go');
    const env = {
      HOSTILE_GATEWAY_URL: server.url,
      HOSTILE_REPORT: report,
      HOSTILE_GO: go,
      HOSTILE_PATHS: [...reachable, join(dir, 'artifacts'), join(dir, 'audit')].join(delimiter),
    };
    const launched = await agent.data(
      'mutation ($input: LaunchInput!) { launch(input: $input) { id pid windows { title } } }',
      {
        input: {
          main: HOSTILE_APP,
          executablePath: STAND_IN,
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
        },
      },
    );
    pgids.push(launched.launch.pid);
    const clicking = agent.send(
      `mutation { click(session: "${launched.launch.id}", target: { testId: "delete-account" }) { target { name } } }`,
    );
    const asked = await watching.waitFor((event) => event.approvalRequests.state === 'PENDING', 120_000);
    await writeFile(go, '');
    const deadline = Date.now() + HUNT_TIMEOUT_MS;
    while (!existsSync(report)) {
      if (Date.now() > deadline) throw new Error('the hostile app never reported');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const hunt = JSON.parse(await readFile(report, 'utf8')) as HuntReport;
    const pendingWhenDone = (await approver.data('{ pendingApprovals { id } }')).pendingApprovals;
    // Sent whatever became of the request: when it is no longer pending, the click's answer says why.
    await approver.send(
      `mutation { deny(id: "${asked.approvalRequests.request.id}", reason: "test") { status } }`,
    );
    const click = await clicking;
    watching.dispose();
    await ws.dispose();
    await agent.data(`mutation { stop(id: "${launched.launch.id}") { status } }`);
    return { server, report: hunt, click, pendingWhenDone };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await expectGroupsGone(pgids, 30_000);
  }
}

function expectNothingUsable(result: Awaited<ReturnType<typeof huntAgainst>>, secrets: string[]): void {
  const { report, click, pendingWhenDone } = result;
  // The app did look: its own environment and command line at least, and the folders it was pointed at.
  expect(report.candidates.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(report.candidates).not.toContain(secret);
  expect(report.accepted).toEqual([]);
  expect(report.approvals).toEqual([]);
  // The click was still waiting when the app had tried everything; the approver's deny is what ended it.
  expect(pendingWhenDone, JSON.stringify(click)).toHaveLength(1);
  expect(click.data?.click ?? null).toBeNull();
  expect(click.errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
}

describe('a launched app that hunts for the gateway’s tokens finds none it can use', () => {
  const dirs: string[] = [];
  let filesRun: Awaited<ReturnType<typeof huntAgainst>> | undefined;
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'token files with hashed approver and observer tokens: its own approval never lands',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'stagegraph-hostile-files-'));
      dirs.push(dir);
      const files = {
        agent: join(dir, 'agent.tokens'),
        approver: join(dir, 'approver.tokens'),
        observer: join(dir, 'observer.tokens'),
      };
      const tokens = {
        agent: createToken('agent', files.agent),
        approver: createToken('approver', files.approver),
        observer: createToken('observer', files.observer),
      };
      const result = await huntAgainst(
        dir,
        () => [
          '--token-file',
          files.agent,
          '--approver-token-file',
          files.approver,
          '--observer-token-file',
          files.observer,
        ],
        tokens,
        Object.values(files),
      );
      // The token files were read: their hash lines are among what it found, and none opened the gate.
      const { filesRead, visiblePids, candidates } = result.report;
      expect(
        candidates.some((word) => word.startsWith('sha256:')),
        JSON.stringify({
          filesRead,
          visiblePids,
          candidates: candidates.length,
          first: candidates.slice(0, 20),
        }),
      ).toBe(true);
      expectNothingUsable(result, Object.values(tokens));
      if (isolation.mode !== 'none') expect(result.server.stderr()).toMatch(ISOLATED_LINE);
      filesRun = result;
    },
    HUNT_TIMEOUT_MS + 180_000,
  );

  it.skipIf(isolation.mode === 'none')(
    'in a PID namespace of its own the app sees neither the gateway’s process nor anything else of this machine',
    () => {
      expect(filesRun, 'the token-file run above').toBeDefined();
      const report = filesRun?.report as HuntReport;
      expect(report.sawGateway).toBe(false);
      // Its parent is the namespace's init (PID 1), not the gateway; /proc lists the app's own tree only.
      expect(report.ppid).toBe(1);
      expect(report.visiblePids).toBeLessThan(40);
    },
  );

  it(
    'clear tokens on the gateway’s command line (warned): masked and out of the app’s sight',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'stagegraph-hostile-argv-'));
      dirs.push(dir);
      const tokens = { agent: `agent-${Date.now()}-clear-a1`, approver: `approver-${Date.now()}-clear-b2` };
      const result = await huntAgainst(
        dir,
        () => ['--token', tokens.agent, '--approver-token', tokens.approver],
        tokens,
        [],
      );
      expect(result.server.stderr()).toMatch(/--approver-token on the command line is readable/);
      expectNothingUsable(result, Object.values(tokens));
    },
    HUNT_TIMEOUT_MS + 180_000,
  );
});
