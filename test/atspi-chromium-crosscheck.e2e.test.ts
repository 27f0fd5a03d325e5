// One Chromium page read two ways through one gateway must name its buttons and links alike: through AT-SPI
// (attachDesktop: the desktop window driver reading Chromium's own accessibility tree off the bus) and
// through the page engine (attach over CDP). The page names them from every source a name can come from:
// content text, aria-label, aria-labelledby, title and an image's alt. Chromium runs headed on an owned Xvfb
// desktop, which the gateway runs on. It registers its tree on the accessibility bus only when told
// accessibility is on (ACCESSIBILITY_ENABLED=1): --force-renderer-accessibility alone builds the renderer's
// tree but leaves the registry's application list empty.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesktopHost, openDesktop } from '../transports/atspi/desktop-host.js';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/browser.js';
import { DESKTOP_AVAILABLE, desktopSkipReason } from './helpers/desktop-fixture.js';
import { startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { expectGroupsGone } from './helpers/processes.js';

const TIMEOUT_MS = 60_000;
const TITLE = 'Crosscheck';
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const PAGE = `<!doctype html><html lang="en"><title>${TITLE}</title>
<button>Plain text</button>
<button aria-label="Labelled by aria">X</button>
<span id="caption">From labelledby</span><button aria-labelledby="caption">Y</button>
<button title="From title"></button>
<button><img alt="Image alt" src="${GIF}"></button>
<a href="#one">Link text</a>
<a href="#two" aria-label="Aria link"><span>ignored</span></a>
<a href="#three" title="Titled link"></a>
<a href="#four"><img alt="Image link" src="${GIF}"></a>
</html>`;
const EXPECTED = [
  'button Plain text',
  'button Labelled by aria',
  'button From labelledby',
  'button From title',
  'button Image alt',
  'link Link text',
  'link Aria link',
  'link Titled link',
  'link Image link',
].sort();

const DEVTOOLS_LINE = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//;

/** Why the suite cannot run on this machine, or undefined when it can. */
function missing(): string | undefined {
  if (!DESKTOP_AVAILABLE) return desktopSkipReason;
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  return undefined;
}

interface Chromium {
  readonly child: ChildProcess;
  readonly port: number;
}

function startChromium(
  env: Readonly<Record<string, string>>,
  url: string,
  profile: string,
): Promise<Chromium> {
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      '--force-renderer-accessibility',
      '--no-default-browser-check',
      '--password-store=basic',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      url,
    ],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env, ACCESSIBILITY_ENABLED: '1' },
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Chromium printed no DevTools port:\n${output}`)),
      TIMEOUT_MS,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it was ready:\n${output}`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = DEVTOOLS_LINE.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, port: Number(match[1]) });
    });
  });
}

/** Polls `read` until `done` holds for its result, or fails with the last one after TIMEOUT_MS. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: last read ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const buttonsAndLinks = (nodes: Loose[]): string[] =>
  nodes
    .filter((node) => node.role === 'button' || node.role === 'link')
    .map((node) => `${node.role} ${node.name}`)
    .sort();

/** One AT-SPI read of the page: its buttons and links, and what the read saw on the way, for a failure's message. */
interface AtspiRead {
  readonly pairs: string[];
  readonly seen: string;
}

/**
 * The page's buttons and links in a snapshot of the Chromium window read over AT-SPI, within the page's
 * document: the window also holds the browser's own toolbar buttons.
 */
async function viaAtspi(client: GatewayClient, session: string): Promise<AtspiRead> {
  const { windows } = (await client.data(`{ session(id: "${session}") { windows { id title } } }`)).session;
  const titles = (windows as Loose[]).map((candidate) => candidate.title);
  const window = (windows as Loose[]).find((candidate) => candidate.title.includes(TITLE));
  if (!window) return { pairs: [], seen: `no window titled ${TITLE} among ${JSON.stringify(titles)}` };
  const read = `{ session(id: "${session}") { window(id: "${window.id}") {
    find(role: "document") { ref name } } } }`;
  const documents = (await client.data(read)).session.window.find as Loose[];
  const document = documents.find((candidate) => candidate.name === TITLE);
  if (!document) {
    return {
      pairs: [],
      seen: `window ${JSON.stringify(window.title)} holds no document named ${TITLE}; documents: ${JSON.stringify(documents.map((candidate) => candidate.name))}`,
    };
  }
  const answer = await client.send(
    `{ session(id: "${session}") { window(id: "${window.id}") { snapshot(within: "${document.ref}") { nodes { role name } } } } }`,
  );
  // The page may replace its document between the find and the snapshot (it is still loading): read again.
  if (answer.errors?.[0]?.extensions?.code === 'REF_STALE') {
    return { pairs: [], seen: 'the document was replaced between the find and the snapshot' };
  }
  expect(answer.errors).toBeUndefined();
  const nodes = answer.data.session.window.snapshot.nodes as Loose[];
  return {
    pairs: buttonsAndLinks(nodes),
    seen: `the document holds ${nodes.length} nodes: ${JSON.stringify(nodes.slice(0, 20).map((node) => `${node.role} ${node.name}`))}`,
  };
}

async function viaPageEngine(client: GatewayClient, session: string): Promise<string[]> {
  const { window } = (
    await client.data(
      `{ session(id: "${session}") { window { snapshot(waitFor: LOAD) { nodes { role name } } } } }`,
    )
  ).session;
  return buttonsAndLinks(window.snapshot.nodes);
}

const unavailable = missing();
if (unavailable) {
  describe.skip(`AT-SPI and the page engine name a Chromium page's buttons and links alike (skipped: ${unavailable})`, () => {
    it('compares the two reads', () => {});
  });
} else {
  describe("AT-SPI and the page engine name a Chromium page's buttons and links alike", () => {
    let host: DesktopHost | undefined;
    let chromium: Chromium | undefined;
    let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
    let folder = '';
    let pageUrl = '';
    const environment = { ...process.env };

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'stagegraph-crosscheck-'));
      const page = join(folder, 'page.html');
      writeFileSync(page, PAGE);
      pageUrl = pathToFileURL(page).href;
      host = await openDesktop({}, TIMEOUT_MS);
      chromium = await startChromium(host.env, pageUrl, join(folder, 'profile'));
      // The gateway runs on the desktop Chromium shows on, as it would on a user's: attachDesktop reaches it.
      Object.assign(process.env, host.env);
      // The page's folder is an upload root, so `navigate` may load it again.
      gateway = await startGateway({ uploadRoots: [folder] });
    }, 180_000);

    afterAll(async () => {
      await gateway?.stop();
      const pid = chromium?.child.pid;
      if (pid !== undefined) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        await expectGroupsGone([pid], 30_000);
      }
      await host?.dispose();
      for (const key of Object.keys(host?.env ?? {})) {
        if (environment[key] === undefined) delete process.env[key];
        else process.env[key] = environment[key];
      }
      if (folder) rmSync(folder, { recursive: true, force: true });
    }, 120_000);

    it('reads the same (role, name) pairs through attachDesktop (AT-SPI) and through attach (CDP)', async () => {
      const client = gatewayClient((gateway as NonNullable<typeof gateway>).url);
      const desktop = (
        await client.data(
          `mutation { attachDesktop(input: { appName: "Chromium", timeoutMs: ${TIMEOUT_MS} }) { id transport } }`,
        )
      ).attachDesktop;
      expect(desktop.transport).toBe('atspi');
      // The renderer fills the document in after the browser registers: wait for the page's nine controls.
      const atspi = await until(
        () => viaAtspi(client, desktop.id),
        (read) => read.pairs.length >= EXPECTED.length,
        "the page's buttons and links did not all reach the accessibility bus",
      ).then((read) => read.pairs);

      const page = (
        await client.data(
          'mutation ($port: Int!, $title: String!) { attach(input: { port: $port, titleContains: $title }) { id transport } }',
          { port: (chromium as Chromium).port, title: TITLE },
        )
      ).attach;
      expect(page.transport).toBe('cdp');
      const cdp = await viaPageEngine(client, page.id);

      expect(atspi).toEqual(EXPECTED);
      expect(cdp).toEqual(atspi);
    });

    it('reads the page afresh after it replaced its document since the last read', async () => {
      const client = gatewayClient((gateway as NonNullable<typeof gateway>).url);
      const desktop = (
        await client.data(
          `mutation { attachDesktop(input: { appName: "Chromium", timeoutMs: ${TIMEOUT_MS} }) { id } }`,
        )
      ).attachDesktop;
      const page = (
        await client.data(
          'mutation ($port: Int!, $title: String!) { attach(input: { port: $port, titleContains: $title }) { id } }',
          { port: (chromium as Chromium).port, title: TITLE },
        )
      ).attach;
      const allNine = (read: AtspiRead) => read.pairs.length >= EXPECTED.length;
      await until(() => viaAtspi(client, desktop.id), allNine, 'the first read did not show the page');
      // Chromium swaps the page's document on each navigation and announces nothing on the old one's parent,
      // whose children the first read kept.
      const navigate = `mutation ($session: ID!, $url: String!) {
        navigate(session: $session, to: { url: $url }) { elapsedMs } }`;
      await client.data(navigate, { session: page.id, url: 'about:blank' });
      await client.data(navigate, { session: page.id, url: pageUrl });
      const again = await until(
        () => viaAtspi(client, desktop.id),
        allNine,
        'the read after two navigations did not show the new document',
      );
      expect(again.pairs).toEqual(EXPECTED);
    });
  });
}
