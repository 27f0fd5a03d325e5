import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GatewayProcess, serveInChild } from './gateway-process.js';

export interface TokenGateway {
  readonly gateway: GatewayProcess;
  readonly agentToken: string;
  readonly approverToken: string;
  /** SIGTERM, then the folder removed; resolves with the gateway's exit code. */
  stop(): Promise<number | null>;
}

/**
 * `stagegraph serve --token … --approver-token …`, no demo: the gateway that the docs' `<agent token>` and
 * `<approver token>` placeholders belong to, in a folder of its own.
 */
export async function serveTokenGateway(name: string): Promise<TokenGateway> {
  const dir = await mkdtemp(join(tmpdir(), `stagegraph-${name}-`));
  const agentToken = `agent-${randomBytes(8).toString('hex')}`;
  const approverToken = `approver-${randomBytes(8).toString('hex')}`;
  const gateway = await serveInChild([
    '--token',
    agentToken,
    '--approver-token',
    approverToken,
    '--artifacts',
    dir,
  ]);
  return {
    gateway,
    agentToken,
    approverToken,
    async stop() {
      gateway.child.kill('SIGTERM');
      const { code } = await gateway.exited;
      await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
