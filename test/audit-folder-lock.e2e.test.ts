import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

const VERIFY = '{ verifyAudit { ok records broken { line reason } } }';

let dir: string;
let first: GatewayProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-audit-lock-e2e-'));
  first = await serveInChild(['--artifacts', dir]);
});
afterAll(async () => {
  first?.child.kill('SIGTERM');
  await first?.exited;
  await rm(dir, { recursive: true, force: true });
});

describe('one audit folder, one gateway (served with bin/stagegraph.js serve)', () => {
  it('refuses a second gateway on the same folder with AUDIT_FOLDER_IN_USE, and the first chain stays whole', async () => {
    const agent = gatewayClient(first.url);
    await agent.send('mutation { stop(id: "s404") { status } }');

    const second = await serveInChild(['--artifacts', dir]).then(
      () => 'served',
      (error: unknown) => String(error),
    );
    expect(second).toMatch(
      /AUDIT_FOLDER_IN_USE: The audit folder .*audit is written by the gateway of pid \d+/,
    );

    await agent.send('mutation { stop(id: "s405") { status } }');
    const { verifyAudit } = await agent.data(VERIFY);
    expect(verifyAudit).toEqual({ ok: true, records: 2, broken: null });
  });

  it('lets a gateway continue the chain once the first has stopped', async () => {
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    first = await serveInChild(['--artifacts', dir]);
    const agent = gatewayClient(first.url);
    await agent.send('mutation { stop(id: "s406") { status } }');
    expect((await agent.data(VERIFY)).verifyAudit).toEqual({ ok: true, records: 3, broken: null });
  });
});
