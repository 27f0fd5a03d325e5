import { describe, expect, it } from 'vitest';
import { EventRelay } from '../../../transports/contract/event-relay.js';
import type {
  ClockControl,
  NetworkControl,
  NetworkRecord,
  StorageControl,
  StubSpec,
} from '../../../transports/contract/renderer-control.js';
import type { TransportEvent } from '../../../transports/contract/transport-events.js';
import { fencedClock, fencedNetwork, fencedStorage, OwnWindows } from './own-page-fence.js';
import { OwnPages } from './own-pages.js';

const OWN = 'http://127.0.0.1:4740';
const APP = 'http://127.0.0.1:3000';

function served(): OwnPages {
  const pages = new OwnPages();
  pages.serveAt(4740, '127.0.0.1');
  return pages;
}

function record(url: string, windowId: string | null): NetworkRecord {
  return {
    time: new Date(),
    windowId,
    method: 'GET',
    url,
    resourceType: 'fetch',
    status: 200,
    requestHeaders: {},
    responseHeaders: {},
    durationMs: 1,
    failure: null,
    stubId: null,
    requestBody: null,
    responseBody: null,
  };
}

describe('OwnWindows', () => {
  it('refuses a window showing one of the gateway pages, as last listed', () => {
    const windows = new OwnWindows(served());
    windows.noted([
      { id: 'w1', title: 'App', url: `${APP}/` },
      { id: 'w2', title: 'Stagegraph observer', url: `${OWN}/#/approvals` },
    ]);
    expect(() => windows.refuse('s1', { id: 'w1', url: `${APP}/` })).not.toThrow();
    expect(() => windows.refuse('s1', { id: 'w2', url: `${OWN}/` })).toThrow(/own pages/);
  });

  it("drops what the gateway's windows log, request or raise, and every request to the gateway", () => {
    const windows = new OwnWindows(served());
    const heard: TransportEvent[] = [];
    const hear = (event: TransportEvent) => heard.push(event);
    const relay = new EventRelay();
    relay.subscribe(windows.fenced([{ 'window-opened': hear, console: hear, network: hear, dialog: hear }]));
    const hides = (event: TransportEvent) => {
      const before = heard.length;
      relay.emit(event);
      return heard.length === before;
    };
    expect(hides({ type: 'window-opened', window: { id: 'w2', title: '', url: `${OWN}/` } })).toBe(false);
    const line = (windowId: string, location?: string) => ({
      type: 'console' as const,
      message: { time: new Date(), type: 'log', text: 'x', source: 'RENDERER' as const, windowId, location },
    });
    expect(hides(line('w2'))).toBe(true);
    expect(hides(line('w1'))).toBe(false);
    expect(hides(line('w1', `${OWN}/observer/app.js:1:2`))).toBe(true);
    expect(hides({ type: 'network', record: record(`${OWN}/artifacts/s1/run.jsonl`, 'w1') })).toBe(true);
    expect(hides({ type: 'network', record: record(`${APP}/api`, 'w2') })).toBe(true);
    expect(hides({ type: 'network', record: record(`${APP}/api`, 'w1') })).toBe(false);
    const dialog = (windowId: string) => ({
      type: 'dialog' as const,
      dialog: { type: 'alert' as const, message: 'm', defaultValue: '', windowId },
      decision: { accept: true },
    });
    expect(hides(dialog('w2'))).toBe(true);
    // Navigated away: from the next listing on, its window is an app window again.
    windows.noted([{ id: 'w2', title: 'App', url: `${APP}/` }]);
    expect(hides(line('w2'))).toBe(false);
  });

  it('holds nothing without the server saying where it serves', () => {
    const windows = new OwnWindows();
    windows.noted([{ id: 'w1', title: '', url: `${OWN}/` }]);
    expect(() => windows.refuse('s1', { id: 'w1', url: `${OWN}/` })).not.toThrow();
  });
});

describe('fencedStorage', () => {
  const calls: string[] = [];
  const control: StorageControl = {
    cookies: async (urls) => {
      calls.push(`cookies ${urls.join(',')}`);
      return [];
    },
    setCookies: async () => {
      calls.push('setCookies');
    },
    clearCookies: async () => {
      calls.push('clearCookies');
    },
    origins: async () => [OWN, APP, 'null'],
    webStorage: async (origin) => {
      calls.push(`webStorage ${origin}`);
      return [['token', 'APPROVER1']];
    },
  };
  const fenced = fencedStorage(control, served(), 's1');

  it("refuses the gateway's origin before the transport is asked, and leaves it out of the origins", async () => {
    await expect(fenced.webStorage(OWN, 'session', { op: 'items' })).rejects.toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: { id: 'built-in:not-on-own-pages' } },
    });
    await expect(fenced.webStorage(`${OWN}/`, 'local', { op: 'clear' })).rejects.toMatchObject({
      code: 'POLICY_DENIED',
    });
    await expect(fenced.cookies([`${APP}/`, `${OWN}/`])).rejects.toMatchObject({ code: 'POLICY_DENIED' });
    await expect(fenced.setCookies([{ name: 'a', value: 'b', url: `${OWN}/` }])).rejects.toMatchObject({
      code: 'POLICY_DENIED',
    });
    expect(calls).toEqual([]);
    expect(await fenced.origins()).toEqual([APP, 'null']);
    expect(await fenced.webStorage(APP, 'local', { op: 'items' })).toEqual([['token', 'APPROVER1']]);
    expect(calls).toEqual([`webStorage ${APP}`]);
  });
});

describe('fencedNetwork', () => {
  const stubbed: string[] = [];
  const control = {
    stub: async (_id: string, spec: StubSpec) => {
      stubbed.push(spec.pattern);
      return { ...spec, id: 'n1', hits: 0, active: true };
    },
  } as unknown as NetworkControl;
  const fenced = fencedNetwork(control, served(), 's1');
  const stub = (pattern: string) =>
    fenced.stub('n1', {
      pattern,
      methods: [],
      status: 200,
      headers: {},
      body: 'x',
      abort: false,
      delayMs: 0,
      times: null,
    });

  it('refuses a stub that would answer a page of the gateway, in any host form it is loaded from', async () => {
    for (const pattern of [
      '**/observer/app.js',
      '*',
      '*/graphql',
      `${OWN}/*`,
      'http://localhost:4740/anything',
      'http://*:4740/*',
      'http://*.localhost:*/',
      'https://[::1]:4740/index.html',
    ])
      await expect(stub(pattern), pattern).rejects.toMatchObject({
        code: 'POLICY_DENIED',
        details: { rule: { id: 'built-in:not-on-own-pages' }, pattern },
      });
    expect(stubbed).toEqual([]);
  });

  it("passes a stub of the app's own requests", async () => {
    for (const pattern of [
      `${APP}/*`,
      '**/api/users',
      '*.png',
      'https://example.com/*',
      'http://localhost:47401/*',
    ])
      await stub(pattern);
    expect(stubbed).toHaveLength(5);
  });
});

describe('fencedClock', () => {
  const calls: string[] = [];
  const control: ClockControl = {
    install: async () => void calls.push('install'),
    setFixedTime: async () => void calls.push('setFixedTime'),
    setSystemTime: async () => void calls.push('setSystemTime'),
    advance: async () => void calls.push('advance'),
    runFor: async () => void calls.push('runFor'),
    pauseAt: async () => void calls.push('pauseAt'),
    resume: async () => void calls.push('resume'),
    now: async () => new Date(0),
  };
  let shown = [{ id: 'w1', title: 'App', url: `${APP}/` }];
  const fenced = fencedClock(control, served(), 's1', async () => shown);

  it("moves no time while a window shows one of the gateway's pages, since the clock spans the browser", async () => {
    await fenced.install(null);
    shown = [...shown, { id: 'w2', title: 'Stagegraph observer', url: `${OWN}/#/approvals` }];
    const changes = [
      () => fenced.install(null),
      () => fenced.setFixedTime(new Date(0)),
      () => fenced.setSystemTime(new Date(0)),
      () => fenced.advance(1),
      () => fenced.runFor(1),
      () => fenced.pauseAt(new Date(0)),
      () => fenced.resume(),
    ];
    for (const change of changes)
      await expect(change()).rejects.toMatchObject({
        code: 'POLICY_DENIED',
        details: { rule: { id: 'built-in:not-on-own-pages' }, window: { id: 'w2' } },
      });
    expect(calls).toEqual(['install']);
    await expect(fenced.now()).resolves.toEqual(new Date(0));
  });
});
