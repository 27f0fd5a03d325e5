import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_READY_TIMEOUT_MS, type ServedDemo, serveDemo } from './helpers/served-demo.js';

/**
 * What an MCP `act` answers when it adds one task to the demo (issue 33): through `stagegraph serve --demo`
 * in a child process and its /mcp, as a host reaches it. The fixture's counter ticks every 500 ms and its
 * task list is rebuilt from scratch on every render, as a framework without keys would.
 */

/** Safety net for a loaded machine; the tests wait for what they cause, never for time to pass. */
const SAFETY_NET_MS = 300_000;
/** Acts tried until one spans a tick of the counter (each adds a task; one act is a few hundred ms). */
const ACTS_TO_SPAN_A_TICK = 20;

const ADD_TASK = [{ do: 'click', target: { role: 'button', name: 'Add task' } }];
/** The counter's lines: its text is a new node at every tick (`- e48 text "9"`, `+ e64 text "10"`). */
const COUNTER_LINE = /^[-+~] *e\d+ text "\d+"$/;
/** The counter in a read's outline: the one text of digits alone. */
const COUNTER_READ = /^ *e\d+ text "(\d+)"$/;

let demo: ServedDemo;
const clients: Client[] = [];

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'mcp-act-diff-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(demo.gateway.url.replace(/graphql$/, 'mcp'))),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string[]> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: SAFETY_NET_MS,
  })) as CallToolResult;
  const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  expect(result.isError, text).toBeFalsy();
  return text.split('\n');
}

/** The lines of an act that adds one task, less the counter's: the one item and nothing else. */
function expectOneAddedTask(lines: readonly string[]): void {
  expect(lines[0]).toMatch(/^1 click: ok e\d+ button "Add task"$/);
  const changes = lines.slice(1).filter((line) => !COUNTER_LINE.test(line) && !line.startsWith('('));
  expect(changes, lines.join('\n')).toEqual([
    expect.stringMatching(/^\+ e\d+ listitem level=1$/),
    expect.stringMatching(/^\+ {2}e\d+ text "Task \d+"$/),
    expect.stringMatching(/^\+ {2}e\d+ button "Done"$/),
  ]);
}

beforeAll(async () => {
  demo = await serveDemo('mcp-act-diff');
}, DEMO_READY_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  expect(await demo?.stop()).toBe(0);
});

describe('an MCP act adding one task', () => {
  it(
    "keeps the buttons' refs when the read tool is the first to see a re-render after an act",
    async () => {
      const agent = await mcpClient();
      const doneRefs = (lines: readonly string[]) =>
        lines.flatMap((line) => /^[+ ]*(e\d+) button "Done"$/.exec(line)?.[1] ?? []);
      const before = doneRefs(await call(agent, 'read', {}));
      const added = doneRefs(await call(agent, 'act', { steps: ADD_TASK, quiet: false }));
      expect(added).toHaveLength(1);
      // A re-render no read sees until the read tool's interactive-only one: it paired no twin before.
      const rerender = await fetch(demo.gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation { click(target: { testId: "rerender" }) { target { ref } } }',
        }),
      });
      expect(await rerender.json()).toMatchObject({
        data: { click: { target: { ref: expect.any(String) } } },
      });
      expect(doneRefs(await call(agent, 'read', {}))).toEqual([...before, ...added]);
    },
    SAFETY_NET_MS,
  );

  it(
    'leaves out the ticking counter once the gateway has seen it change on its own, and says so',
    async () => {
      const agent = await mcpClient();
      // Whole reads until the counter has moved twice between them: no action came in between.
      const counters = new Set<string>();
      while (counters.size < 3) {
        const lines = await call(agent, 'read', { all: true });
        for (const line of lines) counters.add(COUNTER_READ.exec(line)?.[1] ?? '');
        counters.delete('');
      }
      const answers: string[][] = [];
      while (!answers.some((lines) => lines.at(-1)?.startsWith('('))) {
        expect(answers.length, 'no act spanned a tick of the counter').toBeLessThan(ACTS_TO_SPAN_A_TICK);
        const lines = await call(agent, 'act', { steps: ADD_TASK });
        expectOneAddedTask(lines);
        expect(
          lines.filter((line) => COUNTER_LINE.test(line)),
          lines.join('\n'),
        ).toEqual([]);
        answers.push(lines);
      }
      expect(answers.at(-1)?.at(-1)).toMatch(/^\(2 nodes that change on their own left out\)$/);
      const noisy = await call(agent, 'act', { steps: ADD_TASK, quiet: false });
      expectOneAddedTask(noisy);
    },
    SAFETY_NET_MS,
  );
});
