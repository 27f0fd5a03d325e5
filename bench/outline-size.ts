// Outline weight (issue 14): the characters of `snapshot { outline }` and `snapshot(interactiveOnly: true)
// { outline }` for the 100, 1,000 and 5,000-row table pages of bench/table-page.ts, each page read through a
// gateway (plain headless Chromium behind the launch transport, over HTTP as an agent reads it), against
// Playwright's `page.ariaSnapshot({ mode: 'ai' })` — the snapshot Playwright MCP hands an agent — of the
// same page in another headless Chromium of the same run. Beside them, the outline as it was written before
// issue 14 (two spaces a level, every name, every option), rebuilt here from the same nodes for scale.
// Then the characters of a typical fill-fill-click-expect document on the fixture page and of its answer.
// Run: `npx tsx bench/outline-size.ts` (BENCH_SIZES=100,1000 runs only those sizes).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../test/helpers/browser.js';
import { FIXTURE_HOSTS, UNATTENDED_POLICY } from '../test/helpers/fixture-session.js';
import { startGateway } from '../test/helpers/gateway.js';
import { gatewayClient, type Loose } from '../test/helpers/gateway-client.js';
import { plainChromiumTransport } from '../test/helpers/plain-chromium.js';
import { tablePageHtml } from './table-page.js';
import { SIZES } from './table-sizes.js';

/** Goals of issue 14, as fractions of Playwright's AI snapshot of the same page. */
const GOALS = { full: 0.5, interactive: 0.2 };
/**
 * None: the 5,000-row AI snapshot takes seconds on a quiet machine and took more than 5 minutes beside other
 * suites (load average 25 on 2 cores); a size measurement has no reason to give up on it.
 */
const ARIA_TIMEOUT_MS = 0;

/** The longest navigate allows; a page still loading then is waited for with `snapshot(waitFor: LOAD)`. */
const NAVIGATE_TIMEOUT_MS = 60_000;

const NODE_FIELDS = 'ref role name value states level parent { ref }';

/** The outline before issue 14: two spaces a level, and every node with its whole name. */
function outlineBefore(nodes: Loose[]): string {
  const depth = new Map<string, number>();
  return nodes
    .map((node) => {
      const level = node.parent ? (depth.get(node.parent.ref) ?? -1) + 1 : 0;
      depth.set(node.ref, level);
      const name = node.name ? ` ${JSON.stringify(node.name)}` : '';
      const value = node.value ? ` = ${JSON.stringify(node.value)}` : '';
      const states = node.states.length > 0 ? ` [${node.states.join(' ').toLowerCase()}]` : '';
      const lvl = node.level === null ? '' : ` level=${node.level}`;
      return `${'  '.repeat(level)}${node.ref} ${node.role}${name}${value}${lvl}${states}`;
    })
    .join('\n');
}

interface SizeFigures {
  rows: number;
  nodes: number;
  before: number;
  full: number;
  interactive: number;
  aria: number;
}

async function measure(rows: number, folder: string): Promise<SizeFigures> {
  const file = join(folder, `table-${rows}.html`);
  await writeFile(file, tablePageHtml(rows));
  const url = pathToFileURL(file).href;
  const start = join(folder, 'start.html');
  await writeFile(start, '<!doctype html><title>Start</title>');
  // file: URLs an agent navigates to are confined to the upload roots: the pages' folder is one.
  const gateway = await startGateway({ policyFile: UNATTENDED_POLICY, uploadRoots: [folder] }, [
    plainChromiumTransport(pathToFileURL(start).href),
  ]);
  const browser = await launchChromium();
  try {
    const client = gatewayClient(gateway.url);
    await client.data('mutation { launch(input: { main: "table.js" }) { id } }');
    // The large pages load through navigate, not the transport's launch: its load wait is sized for
    // fixture pages, and the 5,000-row page took longer than that beside other suites.
    const navigation = `mutation ($url: String!) { navigate(to: { url: $url }, timeoutMs: ${NAVIGATE_TIMEOUT_MS}) { reached } }`;
    let { reached } = (await client.data(navigation, { url })).navigate;
    while (!reached)
      reached = (await client.data('{ session { window { snapshot(waitFor: LOAD) { loadReached } } } }'))
        .session.window.snapshot.loadReached;
    const read = async (args: string, selection: string) =>
      (await client.data(`{ session { window { snapshot${args} { ${selection} } } } }`)).session.window
        .snapshot;
    const full = await read('', `outline totalNodes nodes { ${NODE_FIELDS} }`);
    const interactive = await read('(interactiveOnly: true)', 'outline');
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(url);
    const aria = await page.ariaSnapshot({ mode: 'ai', timeout: ARIA_TIMEOUT_MS });
    return {
      rows,
      nodes: full.totalNodes,
      before: outlineBefore(full.nodes).length,
      full: full.outline.length,
      interactive: interactive.outline.length,
      aria: aria.length,
    };
  } finally {
    await browser.close();
    await gateway.stop();
  }
}

/** An agent's usual step: two fills, a click that submits, an expectation on what the page says. */
const FORM_DOCUMENT = `mutation Submit {
  name: fill(target: { role: "textbox", name: "Name" }, value: "Ada") { target { ref } }
  password: fill(target: { role: "textbox", name: "Password" }, value: "hunter2", secret: true) { target { ref } }
  submit: click(target: { role: "button", name: "Submit" }) { diff { outline } }
  status: expect(kind: TEXT, target: { testId: "status" }, equals: "Submitted: Ada") { actual }
}`;

async function measureDocument(): Promise<{ document: number; answer: string }> {
  const host = FIXTURE_HOSTS.find((candidate) => candidate.name === 'plain Chromium')!;
  const app = await host.start();
  try {
    // The GraphQL answer as it crosses the wire, without the HTTP status the test client adds beside it.
    const { data, errors } = await app.send(FORM_DOCUMENT);
    return { document: FORM_DOCUMENT.length, answer: JSON.stringify(errors ? { errors, data } : { data }) };
  } finally {
    await app.stop();
  }
}

const chars = (value: number) => value.toLocaleString('en');
const ratio = (value: number, reference: number) => `${(value / reference).toFixed(2)}x`;
const verdict = (value: number, reference: number, goal: number) =>
  value / reference <= goal ? '**PASS**' : '**MISS**';

const folder = await mkdtemp(join(tmpdir(), 'stagegraph-outline-'));
try {
  console.log('## Outline weight (issue 14)\n');
  console.log(
    `Characters of the outline read through the gateway against Playwright's \`page.ariaSnapshot({ mode: 'ai' })\` of the same page (goal: full <= ${GOALS.full}x, interactive-only <= ${GOALS.interactive}x).\n`,
  );
  console.log(
    '| rows | nodes | Playwright AI snapshot | outline before issue 14 | full outline | vs AI | | interactive outline | vs AI | |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const rows of SIZES) {
    const f = await measure(rows, folder);
    console.log(
      `| ${chars(f.rows)} | ${chars(f.nodes)} | ${chars(f.aria)} | ${chars(f.before)} (${ratio(f.before, f.aria)}) | ${chars(f.full)} | ${ratio(f.full, f.aria)} | ${verdict(f.full, f.aria, GOALS.full)} | ${chars(f.interactive)} | ${ratio(f.interactive, f.aria)} | ${verdict(f.interactive, f.aria, GOALS.interactive)} |`,
    );
  }
  const { document, answer } = await measureDocument();
  console.log('\n### A fill-fill-click-expect document on the fixture page (plain Chromium)\n');
  console.log('```graphql');
  console.log(FORM_DOCUMENT);
  console.log('```\n');
  console.log(`Document: ${chars(document)} characters. Answer: ${chars(answer.length)} characters:\n`);
  console.log('```json');
  console.log(answer);
  console.log('```');
} finally {
  await rm(folder, { recursive: true, force: true });
}
