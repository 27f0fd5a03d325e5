import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { buildSchema, type GraphQLEnumType, type GraphQLInputObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import type { Loose } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { useLoopbackServer } from './helpers/loopback-server.js';

/**
 * Tool calls as an MCP host makes them (the SDK's client, at a gateway's /mcp) against a Chromium with two
 * tabs: the schemas the tools advertise hold the calls the bridge takes and refuse the ones it refuses,
 * `open` picks a tab and answers its listing, and actions report what they acted on (issue 34).
 */

/** Safety net for a loaded machine; the tests wait for what they cause, never for time to pass. */
const SAFETY_NET_MS = 120_000;
const SDL = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));

const PAGES: Record<string, string> = {
  '/first': '<title>First tab</title><button>Alpha</button>',
  '/second': `<title>Second tab</title><label>Rent <input></label>
    <button onclick="this.textContent = this.textContent === 'Cancel' ? 'Try it out' : 'Cancel'">Try it out</button>`,
};
const pages = useLoopbackServer((request, response) => {
  const page = PAGES[request.url ?? ''];
  response.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? '');
});

let chromium: OutsideProcess;
let gateway: RunningGateway;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  chromium = await startDebuggableChromium(`${pages.origin()}/first`);
  // The second tab, opened the way DevTools opens one; its target is listed once this answers.
  const opened = await fetch(`http://127.0.0.1:${chromium.port}/json/new?${pages.origin()}/second`, {
    method: 'PUT',
  });
  expect(opened.ok).toBe(true);
  gateway = await startGateway();
  client = new Client({ name: 'mcp-tool-calls-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', gateway.url)));
  ({ tools } = await client.listTools());
}, SAFETY_NET_MS);

afterAll(async () => {
  await client?.close();
  await gateway?.stop();
  await chromium?.kill();
}, SAFETY_NET_MS);

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; failed: boolean }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: SAFETY_NET_MS,
  })) as CallToolResult;
  const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return { text, failed: result.isError === true };
}

const schemaOf = (name: string): Loose => {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.inputSchema;
};

/** Every schema node of a tool, with its path. */
function* nodes(node: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  yield [path, schema];
  for (const [key, property] of Object.entries((schema.properties as object) ?? {}))
    yield* nodes(property, `${path}.${key}`);
  if (schema.items) yield* nodes(schema.items, `${path}[]`);
  for (const [key, defined] of Object.entries((schema.$defs as object) ?? {}))
    yield* nodes(defined, `${path}.$defs.${key}`);
}

/** Calls the bridge takes, each by the schema it advertises, and calls both refuse. */
const TARGET = { role: 'button', name: 'Go', within: { testId: 'form', within: { ref: 'e3' } }, nth: 0 };
const GOOD: [string, Record<string, unknown>][] = [
  ['open', { port: 9222, urlIncludes: '/second' }],
  ['open', { main: 'app', executablePath: '/bin/electron', args: ['--x'], replica: 'b' }],
  ['read', { session: 's1', window: 'w2', since: 'LAST', budgetTokens: 500, all: true, within: 'e4' }],
  [
    'act',
    {
      quiet: false,
      steps: [
        { do: 'fill', target: { ref: 'e2' }, value: 'Rent' },
        { do: 'click', target: TARGET },
        { do: 'press', key: 'Enter' },
        { do: 'expect', kind: 'TEXT', target: { text: 'Saved', exact: false }, contains: 'Sav', not: true },
      ],
    },
  ],
  [
    'screenshot',
    { target: { selector: '#x', within: { query: 'role=form' } }, format: 'jpeg', fullPage: true },
  ],
  ['menu', { action: 'invoke', menu: 'tray', tray: 't1', event: 'RIGHT_CLICK' }],
  ['sessions', {}],
  ['graphql', { query: '{ viewer { role } }', variables: { a: 1 } }],
];
const BAD: [string, Record<string, unknown>, RegExp][] = [
  [
    'act',
    { steps: [{ do: 'fill', target: { ref: 'e2' }, text: 'Rent' }] },
    /"text" \(did you mean "value"\?\)/,
  ],
  [
    'act',
    { steps: [{ do: 'click', target: { ref: 'e2', label: 'x' } }] },
    /steps\[0\]\.target: unknown key "label"/,
  ],
  ['act', { steps: [{ do: 'click', target: { within: { nth: -1 } } }] }, /steps\[0\]\.target\.within\.nth/],
  ['act', { steps: [{ do: 'expect', kind: 'SHOWN' }] }, /steps\[0\]\.kind is "SHOWN"; one of "VISIBLE"/],
  ['act', { steps: [] }, /steps needs at least 1 item/],
  ['act', { steps: [{ target: { ref: 'e2' } }] }, /steps\[0\]: "do" is missing/],
  ['act', { step: [{ do: 'click' }] }, /unknown key "step"/],
  ['open', { port: '9222' }, /port must be an integer/],
  ['open', { port: 9222, url: 'x' }, /unknown key "url"/],
  ['read', { since: 3 }, /since must be a string/],
  ['menu', { action: 'invoke', event: 'click' }, /event is "click"; one of "CLICK"/],
  ['screenshot', { format: 'gif' }, /format is "gif"/],
  ['sessions', { replica: 'a' }, /unknown key "replica"/],
  ['graphql', {}, /"query" is missing/],
];

describe('the input schemas the SDK client receives', () => {
  it('declare every object closed and every parameter described, and act its steps and targets whole', () => {
    for (const tool of tools) {
      for (const [path, node] of nodes(tool.inputSchema, tool.name)) {
        // The one open map: a GraphQL document's variables are named by the document.
        if (node.type === 'object' && path !== 'graphql.variables')
          expect(node, path).toMatchObject({ properties: expect.any(Object), additionalProperties: false });
        if (path !== tool.name && !/(\.\$defs\.\w+|\[\])$/.test(path))
          expect(node.description, `${path} has no description`).toEqual(expect.any(String));
      }
    }
    const act = schemaOf('act');
    const expectKinds = (SDL.getType('ExpectKind') as GraphQLEnumType).getValues().map((value) => value.name);
    expect(new Set(act.properties.steps.items.properties.kind.enum)).toEqual(new Set(expectKinds));
    expect(act.properties.steps.items.properties.target.$ref).toBe('#/$defs/target');
    const target = act.$defs.target;
    const targetInput = Object.keys((SDL.getType('TargetInput') as GraphQLInputObjectType).getFields());
    expect(new Set(Object.keys(target.properties))).toEqual(new Set(targetInput));
  });

  it('hold the calls the bridge takes and refuse the ones it refuses', async () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
    for (const [name, args] of GOOD)
      expect(validators.get(name)?.(args), `${name} ${JSON.stringify(args)}`).toBe(true);
    for (const [name, args, named] of BAD) {
      expect(validators.get(name)?.(args), `${name} ${JSON.stringify(args)}`).toBe(false);
      const refused = await call(name, args);
      expect(refused.failed, refused.text).toBe(true);
      expect(refused.text).toMatch(/^BAD_INPUT: /);
      expect(refused.text).toMatch(named);
    }
  });
});

describe('open, act and errors on a Chromium with two tabs', () => {
  let session = '';

  it(
    'opens the tab urlIncludes picks and answers its interactive listing; read goes on there',
    async () => {
      const opened = await call('open', { port: chromium.port, urlIncludes: '/second' });
      expect(opened.failed, opened.text).toBe(false);
      session = /^session (\S+)/.exec(opened.text)?.[1] ?? '';
      const lines = opened.text.split('\n');
      const picked = lines.find((line) => line.endsWith(`${pages.origin()}/second`));
      const window = /^ {2}(w\d+) /.exec(picked ?? '')?.[1];
      expect(window, opened.text).toBeDefined();
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^snapshot \\S+ of window ${window} "Second tab"$`)),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^ *e\d+ button "Try it out"$/));
      expect(opened.text).not.toMatch(/"Alpha"/);
      const read = await call('read', { session });
      expect(read.text).toMatch(new RegExp(`^snapshot \\S+ of window ${window} "Second tab"`));
    },
    SAFETY_NET_MS,
  );

  it(
    'refuses a step with a key its kind does not take, or without the value it needs, and does nothing',
    async () => {
      const ref = /^ *(e\d+) textbox "Rent"/m.exec((await call('read', { session })).text)?.[1];
      const steps = [
        [{ do: 'fill', target: { ref }, text: 'Rent' }, /"text" \(did you mean "value"\?\)/],
        [{ do: 'type', target: { ref }, text: 'Rent' }, /"text" \(did you mean "value"\?\)/],
        [
          { do: 'fill', target: { ref } },
          /^BAD_INPUT: Step 1 \(fill\): "value" is missing \(the text to fill\)\.$/,
        ],
        [
          { do: 'press', value: 'Enter' },
          /Step 1 \(press\): a press step takes no "value" \(the key goes in "key"\)/,
        ],
        [
          { do: 'click', target: { ref }, value: 'x' },
          /Step 1 \(click\): a click step takes no "value"; it takes target\./,
        ],
      ] as const;
      for (const [step, named] of steps) {
        const refused = await call('act', { session, steps: [step] });
        expect(refused.failed, refused.text).toBe(true);
        expect(refused.text).toMatch(named);
      }
      const read = await call('read', { session });
      expect(read.text).toMatch(new RegExp(`^ *${ref} textbox "Rent"$`, 'm'));
    },
    SAFETY_NET_MS,
  );

  it(
    'reports the target under the name it had when acted on, and its new name, over the bridge and GraphQL',
    async () => {
      const clicked = await call('act', {
        session,
        steps: [{ do: 'click', target: { role: 'button', name: 'Try it out' } }],
      });
      expect(clicked.text.split('\n')[0]).toMatch(/^1 click: ok e\d+ button "Try it out" \(now "Cancel"\)$/);
      const again = await call('graphql', {
        query: `mutation ($session: ID) { click(session: $session, target: { role: "button", name: "Cancel" }) {
          target { name } nameAfter } }`,
        variables: { session },
      });
      expect(JSON.parse(again.text)).toEqual({
        click: { target: { name: 'Cancel' }, nameAfter: 'Try it out' },
      });
    },
    SAFETY_NET_MS,
  );

  it(
    'answers errors with bridge calls to make next, not GraphQL documents',
    async () => {
      const missed = await call('act', {
        session,
        steps: [{ do: 'click', target: { role: 'button', name: 'Try it' } }],
      });
      console.log(`a missed target answered (docs/mcp.md shows it):\n${missed.text}`);
      expect(missed.text).toMatch(/^1 click: SELECTOR_NO_MATCH: /m);
      expect(missed.text).toMatch(/^hint: Check the target against read;/m);
      expect(missed.text).toMatch(/^similar: e\d+ button "Try it out"/m);
      expect(missed.text).toMatch(/^next: read \{"session":"[^"]+","window":"w\d+"\}$/m);
      const other = await call('open', { port: chromium.port, urlIncludes: '/first' });
      expect(other.failed, other.text).toBe(false);
      const ambiguous = await call('read', {});
      expect(ambiguous.failed).toBe(true);
      const lines = ambiguous.text.split('\n');
      expect(lines[0]).toMatch(/^SESSION_AMBIGUOUS: /);
      expect(lines).toContainEqual(expect.stringMatching(/^hint: .*pass "session" \(live: \S+, \S+\)/));
      expect(lines).toContainEqual(expect.stringMatching(/^next: graphql \{"query":"query \{ sessions \{/));
      expect(lines.filter((line) => /^next: (query|mutation)\b/.test(line))).toEqual([]);
    },
    SAFETY_NET_MS,
  );
});
