import { mkdtemp, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/browser.js';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { fixtureLaunch, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { FIXTURE_HOSTS, type FixtureSession, type Loose } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';
import { useLoopbackServer } from './helpers/loopback-server.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/** Responses the tests hold back and release themselves: a slow page is one the test has not let finish. */
class Held {
  readonly #waiting: ServerResponse[] = [];
  #arrived: (() => void) | undefined;
  /** Set by `open`: requests arriving from then on are answered at once. */
  #send: ((response: ServerResponse) => void) | undefined;
  requests = 0;

  hold(response: ServerResponse): void {
    this.requests += 1;
    if (this.#send) {
      this.#send(response);
      return;
    }
    this.#waiting.push(response);
    this.#arrived?.();
  }

  /** Answers what is held and whatever arrives later, until `close`. */
  open(send: (response: ServerResponse) => void): void {
    this.#send = send;
    this.release(send);
  }

  close(): void {
    this.#send = undefined;
  }

  /** Resolves once a request is being held. */
  arrived(): Promise<void> {
    if (this.#waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#arrived = resolve;
    });
  }

  release(send: (response: ServerResponse) => void): void {
    for (const response of this.#waiting.splice(0)) send(response);
  }
}

const image = new Held();
const documentHeld = new Held();
const data = new Held();
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const PIXEL = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

const server = useLoopbackServer((request, response) => {
  const html = (status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/html' });
    response.end(text);
  };
  switch (new URL(request.url ?? '/', 'http://x').pathname) {
    case '/one':
      return html(200, page('One', '<h1>Page one</h1><button>Stay</button><a href="/two">Two</a>'));
    case '/two':
      return html(200, page('Two', '<h1>Page two</h1>'));
    case '/private':
      return html(200, page('Private', '<h1>Private</h1>'));
    case '/gone':
      return html(404, page('Gone', '<h1>Not here</h1>'));
    case '/slow-load':
      return html(200, page('Slow load', '<h1>Slow load</h1><img alt="held" src="/held-image">'));
    case '/held-image':
      return image.hold(response);
    case '/fetching':
      return html(
        200,
        page(
          'Fetching',
          "<h1>Waiting</h1><script>fetch('/held-data').then((r) => r.text()).then((t) => { document.querySelector('h1').textContent = t; });</script>",
        ),
      );
    case '/held-data':
      return data.hold(response);
    case '/held-document':
      // The head goes at once, so the document commits (a new, empty page) and only its content waits.
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<!doctype html><html><head><title>Held</title></head><body>');
      return documentHeld.hold(response);
    default:
      return html(404, page('Missing', ''));
  }
});

const releaseImage = () =>
  image.release((response) => {
    response.writeHead(200, { 'content-type': 'image/gif' });
    response.end(PIXEL);
  });

/** Starting a browser and walking several pages can take minutes beside other suites on two cores. */
const LOADED_MACHINE_MS = 180_000;

const NAVIGATE = `mutation ($to: NavigationInput!, $waitUntil: LoadState, $timeoutMs: Int) {
  navigate(to: $to, waitUntil: $waitUntil, timeoutMs: $timeoutMs) {
    window { id url title } status reached waitUntil
  }
}`;

reportRealElectronSkipped('navigation');

for (const host of FIXTURE_HOSTS) {
  describe(`navigate on ${host.name}`, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    }, LOADED_MACHINE_MS);
    afterAll(() => app?.stop());

    /** The longest wait by default: a page's commit and load take seconds on a loaded machine. */
    const go = (to: Record<string, unknown>, waitUntil?: string, timeoutMs = 60_000) =>
      app.data(NAVIGATE, { to, waitUntil, timeoutMs }).then((data: Loose) => data.navigate);

    it(
      'goes to a URL, back, forward and reloads, answering the window as it is after',
      async () => {
        const one = await go({ url: `${server.origin()}/one` });
        expect(one).toMatchObject({
          window: { url: `${server.origin()}/one`, title: 'One' },
          status: 200,
          reached: true,
          waitUntil: 'LOAD',
        });
        const two = await go({ url: `${server.origin()}/two` });
        expect(two).toMatchObject({ window: { url: `${server.origin()}/two`, title: 'Two' }, status: 200 });
        expect(two.window.id).toBe(one.window.id);
        // Where the step is served from the back/forward cache (the stand-in's Chromium keeps it on), no
        // load event comes again: the document had loaded, and the step still answers reached.
        expect(await go({ step: 'BACK' })).toMatchObject({
          window: { title: 'One', url: `${server.origin()}/one` },
          reached: true,
        });
        expect(await go({ step: 'FORWARD' })).toMatchObject({ window: { title: 'Two' }, reached: true });
        expect(await go({ step: 'RELOAD' })).toMatchObject({ window: { title: 'Two' }, reached: true });
        const gone = await go({ url: `${server.origin()}/gone` });
        expect(gone).toMatchObject({ status: 404, window: { title: 'Gone' } });
      },
      LOADED_MACHINE_MS,
    );

    it(
      'answers with the new document in the same round trip, and refs of the old one are stale',
      async () => {
        await go({ url: `${server.origin()}/one` });
        const read = await app.data('{ session { window { find(role: "button", name: "Stay") { ref } } } }');
        const [{ ref }] = read.session.window.find;
        const moved = await app.data(
          `mutation ($url: String!) { navigate(to: { url: $url }, timeoutMs: 60000) { diff { documentReplaced } outline } }`,
          { url: `${server.origin()}/two` },
        );
        expect(moved.navigate.diff.documentReplaced).toBe(true);
        expect(moved.navigate.outline).toMatch(/heading "Page two"/);
        const stale = await app.failure(`mutation { click(target: { ref: "${ref}" }) { elapsedMs } }`);
        expect(stale.code).toBe('REF_STALE');
      },
      LOADED_MACHINE_MS,
    );

    it(
      'waits for the load it was asked for: COMMIT at once, LOAD once the page has its image',
      async () => {
        const committed = await go({ url: `${server.origin()}/slow-load` }, 'COMMIT');
        expect(committed).toMatchObject({ window: { url: `${server.origin()}/slow-load` }, reached: true });
        await image.arrived();
        releaseImage();

        let answered = false;
        const loading = go({ url: `${server.origin()}/slow-load?again` }, 'LOAD', 60_000).then((result) => {
          answered = true;
          return result;
        });
        await image.arrived();
        // The image is held: the load event cannot have fired, so the navigation has not answered.
        expect(answered).toBe(false);
        releaseImage();
        expect(await loading).toMatchObject({ reached: true, window: { title: 'Slow load' } });
      },
      LOADED_MACHINE_MS,
    );

    it(
      'answers reached: false when a committed page is still loading at the timeout, and snapshot(waitFor:) waits it out',
      async () => {
        const page = `${server.origin()}/slow-load?late`;
        await go({ url: page }, 'COMMIT');
        // A step to a fragment of the same document commits at once; its load event waits on the held image.
        const late = await go({ url: `${page}#part` }, 'LOAD', 10_000);
        expect(late).toMatchObject({ reached: false, status: null, window: { url: `${page}#part` } });
        const reading = app.data(
          '{ session { window { snapshot(waitFor: LOAD) { loadReached outline } } } }',
        );
        await image.arrived();
        releaseImage();
        const { snapshot } = (await reading).session.window;
        expect(snapshot.loadReached).toBe(true);
        expect(snapshot.outline).toMatch(/heading "Slow load"/);
      },
      LOADED_MACHINE_MS,
    );

    it(
      'snapshot(waitFor: NETWORKIDLE) reads once what the page fetched after loading has arrived',
      async () => {
        expect(await go({ url: `${server.origin()}/fetching` }, 'LOAD')).toMatchObject({ reached: true });
        const reading = app.data(
          '{ session { window { snapshot(waitFor: NETWORKIDLE) { loadReached outline } } } }',
        );
        await data.arrived();
        data.release((response) => response.end('Fetched'));
        const { snapshot } = (await reading).session.window;
        expect(snapshot.loadReached).toBe(true);
        expect(snapshot.outline).toMatch(/heading "Fetched"/);
      },
      LOADED_MACHINE_MS,
    );

    it.each([
      ['not a url', 'URL_INVALID'],
      ['javascript:alert(1)', 'URL_SCHEME_REFUSED'],
      ['chrome://settings', 'URL_SCHEME_REFUSED'],
      ['file:///etc/hostname', 'PATH_NOT_ALLOWED'],
      ['http://127.0.0.1:1/', 'NAVIGATION_FAILED'],
    ])(
      'refuses or reports %s with %s, a hint and next actions',
      async (url, code) => {
        const error = await app.failure(NAVIGATE, { to: { url } });
        expect(error).toMatchObject({ code });
        expect(error.hint).toBeTruthy();
        expect(error.nextActions.length).toBeGreaterThan(0);
      },
      LOADED_MACHINE_MS,
    );

    it(
      'says NO_HISTORY_ENTRY when there is nothing forward, and does not move',
      async () => {
        await go({ url: `${server.origin()}/two` });
        const error = await app.failure(NAVIGATE, { to: { step: 'FORWARD' } });
        expect(error).toMatchObject({ code: 'NO_HISTORY_ENTRY', retryable: false });
        const after = await app.data('{ session { window { url } } }');
        expect(after.session.window.url).toBe(`${server.origin()}/two`);
      },
      LOADED_MACHINE_MS,
    );

    it(
      'refuses a navigate naming both a url and a step',
      async () => {
        const error = await app.failure(NAVIGATE, { to: { url: `${server.origin()}/one`, step: 'BACK' } });
        expect(error.code).toBe('BAD_INPUT');
      },
      LOADED_MACHINE_MS,
    );
  });
}

describe('a policy matches where navigate goes, by URL or history step', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stagegraph-navigation-policy-'));
    const policyFile = join(folder, 'policy.yaml');
    await writeFile(
      policyFile,
      [
        'version: 1',
        'rules:',
        '  - id: no-private-pages',
        '    operation: navigate',
        '    target: { kind: [location], name: "*/private" }',
        '    decision: DENY',
      ].join('\n'),
    );
    gateway = await startGateway({ policyFile }, [plainChromiumTransport(`${server.origin()}/private`)]);
    await gatewayClient(gateway.url).data(LaunchDocument, { input: fixtureLaunch() });
  }, LOADED_MACHINE_MS);
  afterAll(() => gateway?.stop());

  it(
    'denies a URL the rule names, and a step BACK that would land there',
    async () => {
      const api = gatewayClient(gateway.url);
      const go = (to: Record<string, unknown>) => ({ to, timeoutMs: 60_000 });
      const denied = await api.failure(NAVIGATE, go({ url: `${server.origin()}/private` }));
      expect(denied.code).toBe('POLICY_DENIED');
      await api.data(NAVIGATE, go({ url: `${server.origin()}/one` }));
      expect((await api.failure(NAVIGATE, go({ step: 'BACK' }))).code).toBe('POLICY_DENIED');
      const still = await api.data('{ session { window { title } } }');
      expect(still.session.window.title).toBe('One');
    },
    LOADED_MACHINE_MS,
  );
});

describe('sessions hand over windows whose document has loaded', () => {
  let gateway: RunningGateway;
  let outside: OutsideProcess | undefined;
  beforeAll(async () => {
    gateway = await startGateway();
  }, LOADED_MACHINE_MS);
  afterAll(async () => {
    releaseDocument();
    await outside?.kill();
    await gateway?.stop();
  });

  const releaseDocument = () =>
    documentHeld.open((response) =>
      response.end('<h1>Held document content</h1><button>Ready</button></body></html>'),
    );
  /**
   * Longer than the 5 s a transport waits for a new window's document before announcing it, so only a
   * session that waits for the document itself sees its content.
   */
  const HOLD_DOCUMENT_MS = 10_000;
  /**
   * Lets the held document's content go some time after `after` (the page was requested), unless the
   * session is handed over first: then the test reads its first outline before the content can arrive,
   * and fails as a session handed over too early would.
   */
  const releaseLater = (after: Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    let cancelled = false;
    void after.then(() => {
      if (!cancelled) timer = setTimeout(releaseDocument, HOLD_DOCUMENT_MS);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  };
  const firstOutline = async (sessionId: string) =>
    (
      await gatewayClient(gateway.url).data(
        `{ session(id: "${sessionId}") { window { snapshot { outline } } } }`,
      )
    ).session.window.snapshot.outline;

  it(
    'attach to a Chromium whose page is still loading returns once it has rendered',
    async () => {
      documentHeld.close();
      const seen = documentHeld.requests;
      outside = await startDebuggableChromium(`${server.origin()}/held-document?attach`);
      await expect.poll(() => documentHeld.requests, { timeout: 60_000 }).toBeGreaterThan(seen);
      const api = gatewayClient(gateway.url);
      const attaching = api.data(`mutation { attach(input: { port: ${outside.port} }) { id } }`);
      const cancel = releaseLater(Promise.resolve());
      const { attach } = await attaching;
      cancel();
      expect(await firstOutline(attach.id)).toMatch(/heading "Held document content"/);
      releaseDocument();
      await api.data(`mutation { detach(id: "${attach.id}") { id } }`);
    },
    LOADED_MACHINE_MS,
  );

  it(
    'launchCommand of a browser on a slow page returns once it has rendered',
    async () => {
      documentHeld.close();
      const profile = await mkdtemp(join(tmpdir(), 'stagegraph-navigation-command-'));
      const api = gatewayClient(gateway.url);
      const launching = api.data(
        'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
        {
          input: {
            command: CHROMIUM,
            args: [
              '--headless',
              ...CHROMIUM_ARGS,
              `--user-data-dir=${profile}`,
              `${server.origin()}/held-document?command`,
            ],
          },
        },
      );
      const cancel = releaseLater(documentHeld.arrived());
      const { launchCommand } = await launching;
      cancel();
      expect(await firstOutline(launchCommand.id)).toMatch(/heading "Held document content"/);
      await api.data(`mutation { stop(id: "${launchCommand.id}") { id } }`);
    },
    LOADED_MACHINE_MS,
  );
});
