import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

const REPORT_LOADS = fileURLToPath(new URL('./helpers/report-module-loads.cjs', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const WATCH_REDIS = { STAGEGRAPH_TEST_REPORT_PACKAGE: 'ioredis' };
const LOADED = 'module loaded: ioredis';

describe('a gateway started without --cluster', () => {
  let gateway: GatewayProcess | undefined;
  afterAll(async () => {
    gateway?.child.kill('SIGTERM');
    await gateway?.exited;
  });

  it('never loads a Redis client, and answers the cluster fields as one process', async () => {
    gateway = await serveInChild([], WATCH_REDIS, ['--require', REPORT_LOADS]);
    const data = await gatewayClient(gateway.url).data(
      '{ replicas { id } sessions { id replica { id } } verifyClusterAudit { ok replicas { replica status reason checkpoint { seq } verification { ok replica } } } }',
    );
    expect(data).toEqual({
      replicas: [],
      sessions: [],
      verifyClusterAudit: {
        ok: true,
        replicas: [
          {
            replica: null,
            status: 'VERIFIED',
            reason: null,
            checkpoint: null,
            verification: { ok: true, replica: null },
          },
        ],
      },
    });
    expect(gateway.stderr()).not.toContain(LOADED);
  });

  it('with --cluster loads it, and refuses to start when Redis does not answer', async () => {
    // Port 1 on loopback: nothing listens there.
    const child = spawn(
      process.execPath,
      ['--require', REPORT_LOADS, BIN, 'serve', '--port', '0', '--cluster', 'redis://127.0.0.1:1'],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...WATCH_REDIS } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toContain(LOADED);
    expect(stderr).toMatch(
      /Cannot start: CLUSTER_UNAVAILABLE: The cluster's Redis at redis:\/\/127\.0\.0\.1:1 did not answer/,
    );
    expect(code).toBe(2);
  });
});
