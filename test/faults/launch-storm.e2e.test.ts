import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch } from '../helpers/fixture-app.js';
import { type RunningGateway, startGateway } from '../helpers/gateway.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import { expectGroupsGone, expectPidsGone, livingGroupMembers, signalEach } from '../helpers/processes.js';
import { LAUNCH, LAUNCH_TIMEOUT_MS, STILL_ANSWERING } from './documents.js';

/** Twenty stand-ins and their Chromiums starting at once on two loaded cores: a safety net, not a target. */
const STORM = 20;

describe('a storm of concurrent launches and stops', () => {
  let gateway: RunningGateway;
  let agent: GatewayClient;
  const groups: number[] = [];

  beforeAll(async () => {
    gateway = await startGateway();
    agent = gatewayClient(gateway.url);
  });
  afterEach(async () => {
    for (const pgid of groups) signalEach([-pgid], 'SIGKILL');
    await expectGroupsGone(groups);
  });
  afterAll(() => gateway?.stop());

  it(`launches ${STORM} apps at once, all RUNNING, then stops them at once, all STOPPED, 0 orphans`, async () => {
    const launched = await Promise.all(
      Array.from({ length: STORM }, () =>
        agent.send(LAUNCH, { input: { ...fixtureLaunch(), timeoutMs: LAUNCH_TIMEOUT_MS } }),
      ),
    );
    const sessions = launched.map((response) => response.data?.launch);
    for (const session of sessions) if (session?.pid) groups.push(session.pid);
    expect(launched.flatMap((response) => response.errors ?? [])).toEqual([]);
    expect(sessions.map((session) => session.status)).toEqual(Array(STORM).fill('RUNNING'));
    const members = groups.flatMap((pgid) => livingGroupMembers(pgid));

    const { sessions: listed } = await agent.data(STILL_ANSWERING);
    expect(listed.filter((session: { status: string }) => session.status === 'RUNNING')).toHaveLength(STORM);

    const stopped = await Promise.all(
      sessions.map((session) => agent.send(`mutation { stop(id: "${session.id}") { status } }`)),
    );
    expect(stopped.flatMap((response) => response.errors ?? [])).toEqual([]);
    expect(stopped.map((response) => response.data?.stop.status)).toEqual(Array(STORM).fill('STOPPED'));
    await expectGroupsGone(groups, 30_000);
    await expectPidsGone(members, 30_000);
  });
});
