// MCP bridge vs Playwright MCP (issue 17): one form-filling task — read the page, fill two fields, click,
// verify the result text — done on the same page in the same run through Stagegraph's MCP bridge
// (`stagegraph mcp --url U --token T`, stdio) and through Playwright MCP 0.0.83 (`@playwright/mcp`, stdio),
// each driven by the MCP SDK's own Client as an agent host would. Per side: the characters of tools/list,
// then the tool calls of the task and the characters of their answers (the text an agent reads), and
// apart from them the one call that opens the page.
//
// Fairness: both sides start their own headless Chromium from the same binary (/usr/bin/chromium, headless,
// no sandbox, a fresh profile) and load the same page from the same local HTTP server; opening it is set
// up by one call on each side (Playwright's browser_navigate, the bridge's open with a command line) and
// counted apart from the task. Each side makes the fewest calls its tools allow and verifies from what its
// answers already say: Playwright reads with browser_snapshot, fills both fields in one browser_fill_form,
// clicks, and checks the result with browser_wait_for (0.0.83 answers an action with a link to a snapshot
// file rather than the snapshot, so the click's answer cannot be read for it); the bridge reads with read
// and runs fill, fill, click and an expect of the status text as one act. Both check the same text.
// Run: `npx tsx bench/mcp-form.ts`
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UNATTENDED_POLICY } from '../test/helpers/fixture-session.js';
import { startGateway } from '../test/helpers/gateway.js';

const CHROMIUM = '/usr/bin/chromium';
const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const PLAYWRIGHT_MCP = fileURLToPath(new URL('../node_modules/@playwright/mcp/cli.js', import.meta.url));
const PAGE = readFileSync(new URL('../fixtures/pages/contact-form.html', import.meta.url), 'utf8');
const TOKEN = 'mcp-bench-token';
const NAME = 'Ada Lovelace';
const EMAIL = 'ada@example.com';
const THANKS = `Thanks, ${NAME}`;
const RESULT = `${THANKS}: we will write to ${EMAIL}.`;
/** Issue 17's goals for the bridge: calls of the task, and its answers' characters against Playwright MCP's. */
const GOALS = { calls: 2, chars: 0.2, toolList: 0.4 };

interface Call {
  readonly tool: string;
  /** Characters of the arguments, as the agent writes them. */
  readonly requestChars: number;
  /** Characters of the answer's content: text as given, an image as its base64 data. */
  readonly responseChars: number;
  readonly text: string;
}

interface Side {
  readonly name: string;
  readonly toolListChars: number;
  readonly tools: number;
  readonly setup: Call[];
  readonly task: Call[];
}

/** One MCP client over stdio that records each call it makes. */
async function connect(command: string, args: string[]) {
  const transport = new StdioClientTransport({
    command,
    args,
    env: process.env as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'stagegraph-bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const call = async (tool: string, args: Record<string, unknown>): Promise<Call> => {
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
    const responseChars = result.content.reduce(
      (sum, item) =>
        sum + (item.type === 'text' ? item.text.length : item.type === 'image' ? item.data.length : 0),
      0,
    );
    if (result.isError) throw new Error(`${tool} failed: ${text}`);
    return { tool, requestChars: JSON.stringify(args).length, responseChars, text };
  };
  return { client, tools, toolListChars: JSON.stringify(tools).length, call };
}

/** The ref a line of text gives the node with this role and name, in either side's notation. */
function refOf(text: string, role: string, name: string, pattern: (role: string, name: string) => RegExp) {
  const match = text.match(pattern(role, name));
  if (!match?.[1]) throw new Error(`no ${role} "${name}" with a ref in:\n${text}`);
  return match[1];
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Playwright MCP's snapshot: `- textbox "Full name" [ref=e12]`. */
const ariaRef = (role: string, name: string) =>
  new RegExp(`${role} "${literal(name)}"[^\\n]*\\[ref=(\\w+)\\]`);
/** The bridge's outline: `e12 textbox "Full name"`. */
const outlineRef = (role: string, name: string) => new RegExp(`^\\s*(\\S+) ${role} "${literal(name)}"`, 'm');

async function playwrightSide(url: string, outputDir: string): Promise<Side> {
  const mcp = await connect(process.execPath, [
    PLAYWRIGHT_MCP,
    '--headless',
    '--browser',
    'chromium',
    '--executable-path',
    CHROMIUM,
    '--no-sandbox',
    '--isolated',
    '--output-dir',
    outputDir,
  ]);
  try {
    const setup = [await mcp.call('browser_navigate', { url })];
    const read = await mcp.call('browser_snapshot', {});
    const ref = (role: string, name: string) => refOf(read.text, role, name, ariaRef);
    const fill = await mcp.call('browser_fill_form', {
      fields: [
        { name: 'Full name', type: 'textbox', target: ref('textbox', 'Full name'), value: NAME },
        { name: 'Email address', type: 'textbox', target: ref('textbox', 'Email address'), value: EMAIL },
      ],
    });
    const click = await mcp.call('browser_click', {
      element: 'Send message button',
      target: ref('button', 'Send message'),
    });
    // An action's answer links its page snapshot as a file (0.0.83); waiting for the text is the check.
    const verify = await mcp.call('browser_wait_for', { text: THANKS });
    return {
      name: 'Playwright MCP 0.0.83',
      toolListChars: mcp.toolListChars,
      tools: mcp.tools.length,
      setup,
      task: [read, fill, click, verify],
    };
  } finally {
    await mcp.client.close();
  }
}

async function stagegraphSide(url: string, profile: string): Promise<Side> {
  const gateway = await startGateway({ token: TOKEN, policyFile: UNATTENDED_POLICY });
  try {
    const mcp = await connect(process.execPath, [BIN, 'mcp', '--url', gateway.url, '--token', TOKEN]);
    try {
      const setup = [
        await mcp.call('open', {
          command: CHROMIUM,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            `--user-data-dir=${profile}`,
            url,
          ],
        }),
      ];
      const read = await mcp.call('read', {});
      const ref = (role: string, name: string) => refOf(read.text, role, name, outlineRef);
      const act = await mcp.call('act', {
        steps: [
          { do: 'fill', target: { ref: ref('textbox', 'Full name') }, value: NAME },
          { do: 'fill', target: { ref: ref('textbox', 'Email address') }, value: EMAIL },
          { do: 'click', target: { ref: ref('button', 'Send message') } },
          { do: 'expect', kind: 'TEXT', target: { role: 'status' }, contains: THANKS },
        ],
      });
      if (!act.text.includes(RESULT)) throw new Error(`bridge: no result text in:\n${act.text}`);
      return {
        name: 'Stagegraph MCP bridge',
        toolListChars: mcp.toolListChars,
        tools: mcp.tools.length,
        setup,
        task: [read, act],
      };
    } finally {
      await mcp.client.close();
    }
  } finally {
    await gateway.stop();
  }
}

const sum = (calls: readonly Call[], key: 'requestChars' | 'responseChars') =>
  calls.reduce((total, call) => total + call[key], 0);
const ratio = (value: number, reference: number) => `${(value / reference).toFixed(3)}x`;
const verdict = (pass: boolean) => (pass ? '**PASS**' : '**MISS**');

function report(bridge: Side, playwright: Side): void {
  const row = (side: Side, versus?: Side) => {
    const cells = [
      side.name,
      `${side.tools} / ${side.toolListChars}`,
      `${side.task.length} (${side.task.map((call) => call.tool).join(', ')})`,
      sum(side.task, 'responseChars'),
      sum(side.task, 'requestChars'),
      `${side.setup.length} / ${sum(side.setup, 'responseChars')}`,
    ];
    const against = versus
      ? [
          ratio(side.toolListChars, versus.toolListChars),
          ratio(sum(side.task, 'responseChars'), sum(versus.task, 'responseChars')),
          ratio(
            sum([...side.setup, ...side.task], 'responseChars'),
            sum([...versus.setup, ...versus.task], 'responseChars'),
          ),
        ]
      : ['reference', 'reference', 'reference'];
    return `| ${[...cells, ...against].join(' | ')} |`;
  };
  console.log(
    '| side | tools / tools/list chars | task calls | task answer chars | task request chars | open: calls / answer chars | tools/list vs ref | task answers vs ref | open + task answers vs ref |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  console.log(row(playwright));
  console.log(row(bridge, playwright));
  const charRatio = sum(bridge.task, 'responseChars') / sum(playwright.task, 'responseChars');
  const listRatio = bridge.toolListChars / playwright.toolListChars;
  console.log();
  console.log(
    `- task calls: ${bridge.task.length} (goal ${GOALS.calls}) ${verdict(bridge.task.length <= GOALS.calls)}`,
  );
  console.log(
    `- task answer characters: ${charRatio.toFixed(3)}x Playwright MCP's (goal <= ${GOALS.chars}x) ${verdict(charRatio <= GOALS.chars)}`,
  );
  console.log(
    `- tools/list characters: ${listRatio.toFixed(3)}x Playwright MCP's (goal <= ${GOALS.toolList}x) ${verdict(listRatio <= GOALS.toolList)}`,
  );
  console.log('\nPer call (answer characters):');
  for (const side of [playwright, bridge]) {
    const calls = [...side.setup, ...side.task].map((call) => `${call.tool} ${call.responseChars}`);
    console.log(`- ${side.name}: ${calls.join(', ')}`);
  }
  if (process.env.BENCH_MCP_SHOW) {
    for (const side of [playwright, bridge])
      for (const call of [...side.setup, ...side.task])
        console.log(`\n--- ${side.name} ${call.tool}\n${call.text}`);
  }
}

/** Chromium processes started from this run's scratch folder: none may outlive the bench. */
function leftovers(scratch: string): string {
  return spawnSync('pgrep', ['-af', scratch], { encoding: 'utf8' }).stdout.trim();
}

const scratch = await mkdtemp(join(tmpdir(), 'stagegraph-mcp-bench-'));
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(PAGE);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact`;
try {
  console.log(`## MCP bridge vs Playwright MCP — ${new Date().toISOString()}\n`);
  console.log(
    `Task: read ${url}, fill "Full name" and "Email address", click "Send message", verify "${RESULT}".\n`,
  );
  const playwright = await playwrightSide(url, join(scratch, 'playwright-output'));
  const bridge = await stagegraphSide(url, join(scratch, 'stagegraph-profile'));
  report(bridge, playwright);
} finally {
  server.close();
  const left = leftovers(scratch);
  if (left) console.error(`processes left behind:\n${left}`);
  await rm(scratch, { recursive: true, force: true });
}
