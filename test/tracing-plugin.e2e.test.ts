import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, FillDocument } from './generated/graphql.js';
import { STAND_IN } from './helpers/fixture-app.js';
import { type FixtureSession, type Loose, startFixtureSession } from './helpers/fixture-session.js';
import { ARTIFACTS_DIR, startGateway } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';
import { serveInChild } from './helpers/gateway-process.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

const TRACE_PLUGIN = fileURLToPath(new URL('../plugins/trace/index.ts', import.meta.url));
const FIXTURE_PAGE = new URL('../fixtures/app/index.html', import.meta.url).href;
const UNGOVERNED_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/ungoverned.ts', import.meta.url));

/** playwright-core's own trace reader, as `playwright show-trace` and `playwright trace` load a zip. */
interface TraceReader {
  utils: {
    ZipFile: new (
      path: string,
    ) => { entries(): Promise<string[]>; read(name: string): Promise<Buffer>; close(): void };
  };
  iso: {
    TraceLoader: new () => { load(backend: object): Promise<void>; contextEntries: object[] };
    TraceModel: new (
      uri: string,
      contexts: object[],
    ) => { actions: { class: string; method: string; params: Record<string, unknown> }[] };
  };
}
const playwright = createRequire(import.meta.url)('playwright-core/lib/coreBundle') as TraceReader;

async function readTrace(path: string) {
  const zip = new playwright.utils.ZipFile(path);
  try {
    const names = await zip.entries();
    const text = async (name: string) =>
      names.includes(name) ? (await zip.read(name)).toString('utf8') : '';
    const backend = {
      isLive: () => false,
      entryNames: async () => names,
      hasEntry: async (name: string) => names.includes(name),
      readText: text,
      readBlob: async (name: string) => new Blob([new Uint8Array(await zip.read(name))]),
    };
    const loader = new playwright.iso.TraceLoader();
    await loader.load(backend);
    const model = new playwright.iso.TraceModel(path, loader.contextEntries);
    const events = (await text('trace.trace'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; method?: string });
    return { names, actions: model.actions, events };
  } finally {
    zip.close();
  }
}

let fixture: FixtureSession;

beforeAll(async () => {
  fixture = await startFixtureSession(STAND_IN, undefined, { plugins: [TRACE_PLUGIN] });
}, 120_000);
afterAll(async () => {
  await fixture?.stop();
});

describe('the trace plugin', () => {
  it("records a trace around two actions into the session's artifacts, one Playwright reads", async () => {
    const { sessionId } = fixture;
    const started = await fixture.data(
      `mutation { startTrace(session: "${sessionId}", screenshots: true, snapshots: true) { id } }`,
    );
    expect(started.startTrace.id).toBe(sessionId);
    await fixture.data(FillDocument, { target: { testId: 'name' }, value: 'Ada Lovelace' });
    await fixture.data(ClickDocument, { target: { testId: 'subscribe' } });
    const { stopTrace } = await fixture.data(
      `mutation { stopTrace(session: "${sessionId}") { path size url } }`,
    );
    expect(stopTrace.path).toMatch(/^traces\/trace-\d+\.zip$/);
    expect(stopTrace.url).toBe(`/artifacts/${sessionId}/${stopTrace.path}`);
    const file = join(ARTIFACTS_DIR, sessionId, stopTrace.path);
    expect(existsSync(file)).toBe(true);
    const listing = await fixture.data(
      `{ session(id: "${sessionId}") { artifacts { files { path size } } } }`,
    );
    expect(listing.session.artifacts.files).toContainEqual({ path: stopTrace.path, size: stopTrace.size });

    const trace = await readTrace(file);
    expect(trace.names).toEqual(expect.arrayContaining(['trace.trace', 'trace.network']));
    const types = new Set(trace.events.map((event) => event.type));
    for (const type of ['context-options', 'before', 'after']) expect(types).toContain(type);
    const methods = trace.actions.map((action) => action.method);
    expect(methods).toContain('fill');
    expect(methods).toContain('click');
    expect(methods.indexOf('fill')).toBeLessThan(methods.lastIndexOf('click'));
  }, 120_000);

  it('is governed and audited like any mutation', async () => {
    const { audit } = await fixture.data(
      '{ audit(first: 500) { edges { node { operation outcome decision session { id } } } } }',
    );
    const operations = audit.edges.map((edge: Loose) => edge.node);
    expect(operations).toContainEqual(
      expect.objectContaining({ operation: 'startTrace', session: { id: fixture.sessionId } }),
    );
    expect(operations).toContainEqual(expect.objectContaining({ operation: 'stopTrace' }));
  });

  it('says what to do when no trace is running, or one already is', async () => {
    const stopped = await fixture.failure(`mutation { stopTrace(session: "${fixture.sessionId}") { path } }`);
    expect(stopped).toMatchObject({ code: 'BAD_INPUT' });
    expect(stopped.hint).toMatch(/startTrace/);
    await fixture.data(`mutation { startTrace(session: "${fixture.sessionId}") { id } }`);
    const twice = await fixture.failure(`mutation { startTrace(session: "${fixture.sessionId}") { id } }`);
    expect(twice).toMatchObject({ code: 'BAD_INPUT' });
    await fixture.data(`mutation { stopTrace(session: "${fixture.sessionId}") { path } }`);
  }, 60_000);
});

describe('the trace plugin on a transport without tracing', () => {
  it('answers CAPABILITY_UNSUPPORTED with a hint, before any trace starts', async () => {
    const gateway = await startGateway({ plugins: [TRACE_PLUGIN] }, [plainChromiumTransport(FIXTURE_PAGE)]);
    try {
      const client = gatewayClient(gateway.url);
      await client.data(`mutation { launch(input: { main: "${FIXTURE_PAGE}" }) { id } }`);
      const refused = await client.failure('mutation { startTrace { id } }');
      expect(refused).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
      expect(refused.hint).toMatch(/launch/);
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});

describe('plugins that cannot be served', () => {
  it.each([
    [
      'a plugin mutation without governance',
      UNGOVERNED_PLUGIN,
      /PLUGIN_FAILED: Plugin "loose" .*Mutation\.looseAct declares no governance/,
    ],
    [
      'a missing module',
      './plugins/absent/index.ts',
      /PLUGIN_FAILED: Plugin module "\.\/plugins\/absent\/index\.ts" could not be loaded/,
    ],
  ])(
    'fail the start on %s, naming it',
    async (_case, plugin, message) => {
      const failure: unknown = await serveInChild(['--plugin', plugin]).then(
        async (served) => {
          served.child.kill('SIGTERM');
          await served.exited;
          return new Error('the server started');
        },
        (error: unknown) => error,
      );
      expect(String(failure)).toMatch(/server exited before it served/);
      expect(String(failure)).toMatch(message);
    },
    120_000,
  );
});
