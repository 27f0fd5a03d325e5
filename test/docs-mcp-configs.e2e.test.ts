import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_TIMEOUT_MS } from './helpers/block-process.js';
import {
  blockName,
  blocksOf,
  type DocBlock,
  docBlockFiles,
  resolvePlaceholders,
  runnerOf,
} from './helpers/doc-blocks.js';
import { expectPidsGone } from './helpers/processes.js';
import { serveTokenGateway, type TokenGateway } from './helpers/token-gateway.js';

/**
 * MCP configs that are started: every ```json block of the docs that holds `mcpServers` is read as an MCP host
 * reads it, with docs/contributing.md's placeholders resolved. A server with a `command` is spawned with its
 * `args` over stdio, in a working folder of its own (a host's is not the clone); one with a `url` is called
 * over streamable HTTP with its `headers`. Each must answer `initialize` and `tools/list` with the seven tools,
 * and a spawned one must leave no process behind once the host closes it. `127.0.0.1:4700` is a gateway
 * served with `--token <agent token> --approver-token <approver token>`.
 */

const TOOLS = ['act', 'graphql', 'menu', 'open', 'read', 'screenshot', 'sessions'];

interface ServerEntry {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
  readonly type?: string;
  readonly url?: string;
  readonly headers?: Record<string, string>;
}

let gateway: TokenGateway;
let hostFolder: string;

beforeAll(async () => {
  hostFolder = mkdtempSync(join(tmpdir(), 'stagegraph-mcp-host-'));
  gateway = await serveTokenGateway('docs-mcp-configs');
});

afterAll(async () => {
  const code = await gateway?.stop();
  rmSync(hostFolder, { recursive: true, force: true });
  expect(code).toBe(0);
});

function serversOf(block: DocBlock): [string, ServerEntry][] {
  const resolved = resolvePlaceholders(block.body, {
    gateway: new URL(gateway.gateway.url).host,
    agentToken: gateway.agentToken,
    approverToken: gateway.approverToken,
  });
  return Object.entries((JSON.parse(resolved) as { mcpServers: Record<string, ServerEntry> }).mcpServers);
}

/** The host's environment: nothing of the suite's that a config does not name. */
function hostEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (
      value !== undefined &&
      !key.startsWith('STAGEGRAPH_') &&
      !key.startsWith('VITEST') &&
      key !== 'NODE_ENV'
    )
      env[key] = value;
  // npx must never fetch a package a config names from the registry: the docs' commands are all in the clone.
  return { ...env, npm_config_offline: 'true', ...extra };
}

/** What the config starts, as written, for the test's name. */
function serverNames(block: DocBlock): string {
  const { mcpServers } = JSON.parse(block.body) as { mcpServers: Record<string, ServerEntry> };
  return Object.values(mcpServers)
    .map((entry) =>
      entry.command ? ` ${[entry.command, ...(entry.args ?? [])].join(' ')}` : ` ${entry.url}`,
    )
    .join(',');
}

async function listTools(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools.map((tool) => tool.name).sort();
}

async function startStdio(name: string, server: ServerEntry): Promise<void> {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: server.command!,
    args: [...(server.args ?? [])],
    env: hostEnvironment(server.env),
    cwd: hostFolder,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: `docs-${name}`, version: '1.0.0' });
  try {
    await client.connect(transport);
    expect(await listTools(client), stderr.join('')).toEqual(TOOLS);
  } catch (error) {
    throw new Error(`${server.command} ${server.args?.join(' ')} failed: ${error}\n${stderr.join('')}`);
  } finally {
    const pid = transport.pid;
    await client.close();
    if (pid) await expectPidsGone([pid], 30_000);
  }
}

async function startHttp(name: string, server: ServerEntry): Promise<void> {
  expect(server.type, 'a config with a url is streamable HTTP').toBe('http');
  const transport = new StreamableHTTPClientTransport(new URL(server.url!), {
    requestInit: { headers: server.headers ?? {} },
  });
  const client = new Client({ name: `docs-${name}`, version: '1.0.0' });
  try {
    await client.connect(transport);
    expect(await listTools(client)).toEqual(TOOLS);
  } finally {
    await client.close();
  }
}

for (const file of docBlockFiles()) {
  const blocks = blocksOf(file).filter((block) => runnerOf(block) === 'mcp-config');
  if (blocks.length === 0) continue;
  describe(file, () => {
    for (const block of blocks)
      it(`${blockName(block)}${serverNames(block)}`, { timeout: BLOCK_TIMEOUT_MS }, async () => {
        const servers = serversOf(block);
        expect(servers.length, 'the config names a server').toBeGreaterThan(0);
        for (const [name, server] of servers)
          if (server.command) await startStdio(name, server);
          else await startHttp(name, server);
      });
  });
}
