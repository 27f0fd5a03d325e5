import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import {
  AGENT_TOKEN,
  APPROVER_TOKEN,
  approversWatching,
  type GovernedRun,
  startGovernedRun,
} from './helpers/governed-gateway.js';
import { expectPidsGone } from './helpers/processes.js';

/**
 * The MCP bridge driven by the SDK's own client: over stdio (`stagegraph mcp --url` as a child process,
 * against a running governed gateway) and over streamable HTTP at the gateway's /mcp.
 */

/** Safety net for launching the fixture app on a loaded machine; nothing here waits for time to pass. */
const SAFETY_NET_MS = 300_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Playwright MCP 0.0.83's tools/list, in characters (names, descriptions, input schemas, as JSON). */
const PLAYWRIGHT_MCP_TOOLS_CHARS = 20_296;

const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');

function sessionIdOf(openText: string): string {
  const id = /^session (\S+)/.exec(openText)?.[1];
  if (!id) throw new Error(`open answered no session: ${openText}`);
  return id;
}

let run: GovernedRun;
beforeAll(async () => {
  run = await startGovernedRun({}, { launch: false });
}, SAFETY_NET_MS);
afterAll(async () => {
  await run?.stop();
  await run?.cleanup();
}, SAFETY_NET_MS);

/** The agent loop every transport must carry: open, read, one act, a screenshot, an error. */
function agentLoop(client: () => Client, session: { id: string }) {
  it(
    'opens the fixture app, reporting progress while it launches',
    async () => {
      const progress: string[] = [];
      const { main, executablePath } = fixtureLaunch();
      const opened = await client().callTool(
        { name: 'open', arguments: { main, executablePath } },
        undefined,
        {
          onprogress: (report) => progress.push(report.message ?? ''),
          timeout: SAFETY_NET_MS,
        },
      );
      expect(opened.isError).toBeFalsy();
      expect(textOf(opened)).toMatch(/^session \S+ \(playwright-electron\) app "Stagegraph Fixture"/);
      expect(textOf(opened)).toMatch(/w\d+ "Stagegraph Fixture"/);
      session.id = sessionIdOf(textOf(opened));
      expect(progress[0]).toBe('launch: starting');
      // Later reports (one a second while the app starts, then "session … is running") depend on timing.
      expect(progress.slice(1).every((message) => message.startsWith('launch: '))).toBe(true);
      // The ticking counter would put a change into every diff.
      await client().callTool({
        name: 'act',
        arguments: { session: session.id, steps: [{ do: 'click', target: { testId: 'stop-ticking' } }] },
      });
    },
    SAFETY_NET_MS,
  );

  it(
    'reads the interactive outline, then only what changed',
    async () => {
      const read = await client().callTool({ name: 'read', arguments: { session: session.id } });
      const outline = textOf(read);
      expect(outline).toMatch(/^snapshot \S+ of window w\d+ "Stagegraph Fixture"/);
      expect(outline).toMatch(/^ *e\d+ textbox "Name"$/m);
      expect(outline).toMatch(/^ *e\d+ button "Add task"$/m);
      const snapshotId = /^snapshot (\S+)/.exec(outline)?.[1];
      const same = await client().callTool({
        name: 'read',
        arguments: { session: session.id, since: snapshotId },
      });
      expect(textOf(same)).toMatch(/\(no change\)$/);
    },
    SAFETY_NET_MS,
  );

  it(
    'acts: fills, clicks and expects in one call, answering each step and the change',
    async () => {
      const acted = await client().callTool(
        {
          name: 'act',
          arguments: {
            session: session.id,
            steps: [
              { do: 'fill', target: { role: 'textbox', name: 'Name' }, value: 'Ada' },
              { do: 'click', target: { role: 'button', name: 'Add task' } },
              { do: 'expect', kind: 'VISIBLE', target: { text: 'Task 4' } },
            ],
          },
        },
        undefined,
        { timeout: SAFETY_NET_MS },
      );
      expect(acted.isError, textOf(acted)).toBeFalsy();
      console.log(`act answered:\n${textOf(acted)}`);
      const lines = textOf(acted).split('\n');
      expect(lines[0]).toMatch(/^1 fill: ok e\d+ textbox "Name"$/);
      expect(lines).toContainEqual(expect.stringMatching(/^~ .*textbox "Name" = "Ada" .*\(was = ""/));
      // Lines where only focus moved are left out of the answer.
      expect(lines.filter((line) => /^~ .*\(was \[[^\]]*\]\)$/.test(line))).toEqual([]);
      expect(lines).toContainEqual(expect.stringMatching(/^2 click: ok e\d+ button "Add task"$/));
      expect(lines).toContainEqual(expect.stringMatching(/^\+ .*"Task 4"/));
      expect(lines.at(-1)).toBe('3 expect: ok, actual "true"');
    },
    SAFETY_NET_MS,
  );

  it(
    'answers a screenshot as image content',
    async () => {
      const shot = await client().callTool({ name: 'screenshot', arguments: { session: session.id } });
      const image = (shot as CallToolResult).content[0];
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
      const bytes = Buffer.from((image as { data: string }).data, 'base64');
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    },
    SAFETY_NET_MS,
  );

  it(
    'answers a failed step as a tool error with its code, hint and next actions, and skips the rest',
    async () => {
      const acted = await client().callTool({
        name: 'act',
        arguments: {
          session: session.id,
          steps: [
            { do: 'fill', target: { ref: 'e99999' }, value: 'x' },
            { do: 'click', target: { role: 'button', name: 'Add task' } },
          ],
        },
      });
      expect(acted.isError).toBe(true);
      const text = textOf(acted);
      expect(text).toMatch(/^1 fill: REF_NOT_FOUND: /m);
      expect(text).toMatch(/^hint: \S/m);
      // Next actions are bridge calls: the gateway's GraphQL ones as the graphql tool's arguments.
      expect(text).toMatch(/^next: graphql \{"query":"query \{ session\(id: /m);
      expect(text).toMatch(/^2 click: not run \(an earlier step failed\)$/m);
    },
    SAFETY_NET_MS,
  );
}

describe('the MCP bridge over stdio (stagegraph mcp --url)', () => {
  let transport: StdioClientTransport;
  let client: Client;
  const elicited: ElicitRequest['params'][] = [];
  const session = { id: '' };

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        'bin/stagegraph.js',
        'mcp',
        '--url',
        run.gateway.url,
        '--token',
        AGENT_TOKEN,
        '--approver-token',
        APPROVER_TOKEN,
      ],
      cwd: ROOT,
      stderr: 'ignore',
    });
    client = new Client({ name: 'e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(request.params);
      return { action: 'accept', content: { decision: 'approve once' } };
    });
    await client.connect(transport);
  }, SAFETY_NET_MS);
  afterAll(async () => {
    const pid = transport?.pid;
    await client?.close();
    if (pid) await expectPidsGone([pid], 30_000);
  }, SAFETY_NET_MS);

  it('lists seven tools in at most 0.4x the characters of Playwright MCP, and the SDL as a resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'open',
      'read',
      'act',
      'screenshot',
      'menu',
      'sessions',
      'graphql',
    ]);
    const chars = JSON.stringify(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    ).length;
    console.log(
      `tools/list: ${chars} characters (${(chars / PLAYWRIGHT_MCP_TOOLS_CHARS).toFixed(2)}x Playwright MCP)`,
    );
    expect(chars).toBeLessThanOrEqual(0.4 * PLAYWRIGHT_MCP_TOOLS_CHARS);
    const sdl = await client.readResource({ uri: 'stagegraph://schema.graphql' });
    expect((sdl.contents[0] as { text: string }).text).toContain('type Mutation');
  });

  agentLoop(() => client, session);

  it(
    'asks the human through elicitation when the policy asks, and answers the approval as the approver',
    async () => {
      await approversWatching(run, 1, 30_000);
      const acted = await client.callTool(
        {
          name: 'act',
          arguments: {
            session: session.id,
            steps: [
              { do: 'click', target: { role: 'button', name: 'Delete account' } },
              { do: 'expect', kind: 'TEXT', target: { testId: 'status' }, value: 'Account deleted' },
            ],
          },
        },
        undefined,
        { timeout: SAFETY_NET_MS },
      );
      expect(acted.isError, textOf(acted)).toBeFalsy();
      expect(elicited).toHaveLength(1);
      expect(elicited[0]?.message).toMatch(/click button "Delete account".*Risk HIGH/);
      const approverId = (await run.approver.data('{ viewer { id } }')).viewer.id;
      // The audit names the bridge's agent as the client and the approver as who decided.
      const audit = await run.approver.data(
        `{ audit(first: 5, filter: { operations: ["click"], decisions: [ASK] }) { edges { node { client { role } outcome approval { status decidedBy } target { name } } } } }`,
      );
      expect(audit.audit.edges.map((edge: { node: unknown }) => edge.node)).toContainEqual({
        client: { role: 'AGENT' },
        outcome: 'OK',
        approval: { status: 'APPROVED', decidedBy: approverId },
        target: { name: 'Delete account' },
      });
    },
    SAFETY_NET_MS,
  );

  it('the graphql tool runs any document; its errors carry the code', async () => {
    const answered = await client.callTool({ name: 'graphql', arguments: { query: '{ viewer { role } }' } });
    expect(textOf(answered)).toBe('{"viewer":{"role":"AGENT"}}');
    const failed = await client.callTool({
      name: 'graphql',
      arguments: { query: 'query($id: ID) { session(id: $id) { id } }', variables: { id: 'nope' } },
    });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^session: SESSION_NOT_FOUND: /m);
  });
});

describe('stagegraph mcp --url loads no server code', () => {
  it('starts as a client of the gateway: neither the server nor Playwright is loaded', async () => {
    // stdin is closed at once, so the bridge starts and ends; NODE_DEBUG=esm names every module it loaded.
    const started = promisify(execFile)(
      process.execPath,
      ['bin/stagegraph.js', 'mcp', '--url', 'http://127.0.0.1:9/graphql'],
      { cwd: ROOT, env: { ...process.env, NODE_DEBUG: 'esm' }, timeout: SAFETY_NET_MS, maxBuffer: 256 << 20 },
    );
    started.child.stdin?.end();
    const { stderr } = await started;
    const loaded = [...stderr.matchAll(/Storing (file:\/\/\S+)/g)].map((match) => match[1]!);
    expect(loaded.some((url) => url.endsWith('/mcp/bridge-server.ts'))).toBe(true);
    expect(loaded.filter((url) => /playwright-core|graphql-yoga|\/server\/app\.ts$/.test(url))).toEqual([]);
  });
});

describe('stagegraph mcp without --url (a gateway in its own process)', () => {
  it(
    'takes serve options as docs/mcp.md writes them, serves the tools from a gateway it started, and ends when the host closes stdin',
    async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        // A serve option's value after a space, as the MCP config in docs/mcp.md gives `--electron`.
        args: [join(ROOT, 'bin/stagegraph.js'), 'mcp', '--electron', STAND_IN],
        // An MCP host starts it in a folder of its own, where its default ./.artifacts is its own too.
        cwd: mkdtempSync(join(tmpdir(), 'stagegraph-mcp-host-')),
        stderr: 'ignore',
      });
      const client = new Client({ name: 'e2e-in-process', version: '1.0.0' });
      try {
        await client.connect(transport);
        const viewer = await client.callTool({
          name: 'graphql',
          arguments: { query: '{ viewer { role } sessions { id } }' },
        });
        expect(textOf(viewer)).toBe('{"viewer":{"role":"AGENT"},"sessions":[]}');
      } finally {
        const pid = transport.pid;
        await client.close();
        if (pid) await expectPidsGone([pid], 30_000);
      }
    },
    SAFETY_NET_MS,
  );
});

describe('the MCP bridge at /mcp (streamable HTTP)', () => {
  let client: Client;
  let endpoint: URL;
  const session = { id: '' };

  beforeAll(async () => {
    endpoint = new URL('/mcp', run.gateway.url);
    client = new Client({ name: 'e2e-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { authorization: `Bearer ${AGENT_TOKEN}` } },
      }),
    );
  }, SAFETY_NET_MS);
  afterAll(() => client?.close(), SAFETY_NET_MS);

  agentLoop(() => client, session);

  it('without an approver to elicit, a policy ask answers the usual APPROVAL_* error', async () => {
    await approversWatching(run, 0, 30_000);
    const acted = await client.callTool({
      name: 'act',
      arguments: {
        session: session.id,
        steps: [{ do: 'click', target: { role: 'button', name: 'Delete account' } }],
      },
    });
    expect(acted.isError).toBe(true);
    expect(textOf(acted)).toMatch(/^1 click: APPROVAL_UNAVAILABLE: /m);
  });

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  it('refuses a foreign Origin before anything else (the request guard)', async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        authorization: `Bearer ${AGENT_TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: initialize,
    });
    expect(response.status).toBe(403);
    expect(JSON.stringify(await response.json())).toContain('FORBIDDEN_ORIGIN');
  });

  it('refuses a request without the token the gateway requires, and a body that is not JSON', async () => {
    const missing = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(missing.status).toBe(401);
    expect(JSON.stringify(await missing.json())).toContain('UNAUTHENTICATED');
    const form = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': 'text/plain' },
      body: initialize,
    });
    expect(form.status).toBe(415);
  });
});
