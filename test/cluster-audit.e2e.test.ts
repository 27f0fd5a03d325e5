import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const SECRET = 'cluster-audit-secret';
const VERIFY_B =
  '{ verifyAudit(replica: "b") { ok replica records lastSeq broken { file line seq reason } } }';

describeWithRedis('audit across replicas: each keeps its chain, any verifies it', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onA: GatewayClient;
  const auditOfB = mkdtempSync(join(tmpdir(), 'stagegraph-audit-b-'));

  const replica = (id: string, ...extra: string[]) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET, ...extra]);
  const startB = () => replica('b', '--audit-dir', auditOfB);
  async function stopGracefully(gateway: GatewayProcess): Promise<void> {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
  }
  const fileOfB = () => join(auditOfB, readdirSync(auditOfB).find((name) => name.endsWith('.jsonl'))!);

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([replica('a'), startB()]);
    onA = gatewayClient(a.url);
  });
  afterAll(async () => {
    for (const gateway of [a, b])
      if (gateway?.child.exitCode === null && gateway.child.signalCode === null)
        await stopGracefully(gateway);
    await redis?.stop();
    rmSync(auditOfB, { recursive: true, force: true });
  });

  it("reads and verifies another replica's trail through any replica, naming the replica", async () => {
    const onB = gatewayClient(b.url);
    // Mutations are audited whatever they do: three refused stops leave three records on b only.
    for (let stop = 0; stop < 3; stop += 1) await onB.send('mutation { stop(id: "no-such-session") { id } }');
    expect((await onA.data(VERIFY_B)).verifyAudit).toEqual({
      ok: true,
      replica: 'b',
      records: 3,
      lastSeq: 3,
      broken: null,
    });
    const { audit } = await onA.data(
      '{ audit(replica: "b", first: 10) { edges { node { seq operation } } } }',
    );
    expect(audit.edges.map((edge: { node: unknown }) => edge.node)).toEqual([
      { seq: 1, operation: 'stop' },
      { seq: 2, operation: 'stop' },
      { seq: 3, operation: 'stop' },
    ]);
    expect((await onA.data('{ verifyAudit { ok replica records } }')).verifyAudit).toEqual({
      ok: true,
      replica: 'a',
      records: 0,
    });
  });

  it("finds a tail cut from b's files while it was down (a cut chain is still a chain), and an edited record", async () => {
    await stopGracefully(b);
    const lines = readFileSync(fileOfB(), 'utf8').split('\n').filter(Boolean);
    writeFileSync(fileOfB(), `${lines.slice(0, -1).join('\n')}\n`);
    b = await startB();
    expect((await onA.data(VERIFY_B)).verifyAudit).toMatchObject({
      ok: false,
      replica: 'b',
      records: 2,
      broken: { seq: 3, line: 0, reason: expect.stringMatching(/ends at seq 2, but seq 3 was checkpointed/) },
    });

    await stopGracefully(b);
    const kept = readFileSync(fileOfB(), 'utf8');
    writeFileSync(fileOfB(), kept.replace('"operation":"stop"', '"operation":"stoq"'));
    b = await startB();
    expect((await onA.data(VERIFY_B)).verifyAudit).toMatchObject({
      ok: false,
      replica: 'b',
      broken: { line: 1, seq: 1, reason: expect.stringMatching(/does not match its hash/) },
    });
  }, 300_000);
});
