import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ELECTRON_TARGETS,
  FIXTURE_APP_MAIN,
  reportRealElectronSkipped,
} from '../../test/helpers/fixture-app.js';
import { inspectableNode } from '../../test/helpers/inspectable-node.js';
import { expectGroupsGone } from '../../test/helpers/processes.js';
import { TransportError } from '../contract/transport-error.js';
import type { ConsoleMessage } from '../contract/transport-events.js';
import type * as inspectors from '../main-agent/main-inspector.js';
import { signalGroup } from '../process/process-group.js';
import { openMainChannel } from './main-channel.js';
import { PlaywrightNativeSurface } from './playwright-electron-native-surface.js';

/** Where a test says so, the inspector found is this one instead of the app's. */
let foundInstead: (() => ReturnType<typeof inspectors.findInspector>) | null = null;
vi.mock('../main-agent/main-inspector.js', async (original) => {
  const real = await original<typeof inspectors>();
  const mocked = { ...real };
  // Assigned, not a property of the literal: a named function would be wrapped in esbuild's `__name`
  // (the suite compiles as tsx does, test/compile-as-served.ts), which a hoisted factory runs before.
  mocked.findInspector = (...args) => (foundInstead ? foundInstead() : real.findInspector(...args));
  return mocked;
});

const GET_NAME = '(electron, suffix) => electron.app.getName() + suffix';

describe.each(ELECTRON_TARGETS)('the main channel of a launched app ($name)', ({ executablePath }) => {
  let electron: ElectronApplication;

  beforeAll(async () => {
    electron = await _electron.launch({ executablePath, args: [FIXTURE_APP_MAIN], timeout: 30_000 });
  });
  afterAll(async () => {
    await electron?.close();
  });
  afterEach(() => {
    foundInstead = null;
  });

  it("calls over a session of its own on the app's inspector: values, errors and the electron module", async () => {
    const channel = await openMainChannel(electron);
    try {
      expect(channel.via).toBe('inspector');
      const name = await electron.evaluate(({ app }) => app.getName());
      await expect(channel.run(GET_NAME, '!')).resolves.toBe(`${name}!`);
      await expect(channel.run('() => ({ list: [1, "two", null], nested: { ok: true } })')).resolves.toEqual({
        list: [1, 'two', null],
        nested: { ok: true },
      });
      await expect(channel.run('async () => { throw new Error("refused here") }')).rejects.toThrow(
        'refused here',
      );
      // Playwright's own session on the same inspector still answers beside ours.
      await expect(electron.evaluate(({ app }) => app.getName())).resolves.toBe(name);
      expect(channel.gone()).toBe(false);
    } finally {
      await channel.close();
    }
    expect(channel.gone()).toBe(true);
    await expect(channel.run(GET_NAME, '')).rejects.toBeInstanceOf(TransportError);
  });

  it('lets an app that quits end: the channel leaves when Node waits for its debugger sessions', async () => {
    const quitting = await _electron.launch({ executablePath, args: [FIXTURE_APP_MAIN], timeout: 30_000 });
    const child = quitting.process();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const channel = await openMainChannel(quitting);
    expect(channel.via).toBe('inspector');
    // The app quits on its own, its channel still open: Node then waits for every inspector session.
    try {
      await channel.run('(electron) => { setTimeout(() => electron.app.quit(), 0); return null; }');
      await expect(exited).resolves.toBe(0);
      expect(channel.gone()).toBe(true);
      // Nothing of it stays behind: its Chromium (the stand-in's, or Electron's own processes) went with it.
      if (child.pid !== undefined) await expectGroupsGone([child.pid]);
    } finally {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    }
  });

  it("feeds the main console from the process's first line, in order, then live lines", async () => {
    const channel = await openMainChannel(electron);
    const lines: ConsoleMessage[] = [];
    const live = new Promise<void>((resolve) => {
      void channel.feedConsole((message) => {
        lines.push(message);
        if (message.text.startsWith('live:')) resolve();
      });
    });
    try {
      // Logged from a ready handler added now, so after the fixture's own start-up line.
      await channel.run(
        '(electron) => { electron.app.whenReady().then(() => console.log("live:", { after: "ready" })); return null; }',
      );
      await live;
      const texts = lines.map((line) => line.text);
      expect(texts.indexOf('fixture main: ready')).toBeGreaterThanOrEqual(0);
      expect(texts.indexOf('fixture main: ready')).toBeLessThan(texts.indexOf('live: {after: ready}'));
      expect(new Set(lines.map((line) => line.source))).toEqual(new Set(['MAIN']));
    } finally {
      await channel.close();
    }
  });

  it("the native surface's calls take that channel", async () => {
    const surface = await PlaywrightNativeSurface.attach(electron, { entries: () => [] });
    try {
      expect(surface.via).toBe('inspector');
      const menu = await surface.applicationMenu();
      expect(menu?.map((item) => item.label)).toContain('View');
    } finally {
      await surface.close();
    }
  });

  it('goes through Playwright where no inspector of the app is found, and calls still arrive', async () => {
    foundInstead = async () => null;
    const channel = await openMainChannel(electron);
    expect(channel.via).toBe('playwright');
    const name = await electron.evaluate(({ app }) => app.getName());
    await expect(channel.run(GET_NAME, '?')).resolves.toBe(`${name}?`);
    // Its console comes through Playwright too, from the moment it is fed.
    const line = new Promise<ConsoleMessage>((resolve) => {
      void channel.feedConsole((message) => {
        if (message.text === 'through playwright') resolve(message);
      });
    });
    await electron.evaluate(() => console.log('through playwright'));
    await expect(line).resolves.toMatchObject({ source: 'MAIN', type: 'log' });
  });

  it('never calls into an inspector that answers for another process', async () => {
    const other = await inspectableNode('setInterval(() => {}, 1000)');
    try {
      const port = Number(new URL(other.url).port);
      foundInstead = async () => ({ port, webSocketDebuggerUrl: other.url });
      const channel = await openMainChannel(electron);
      expect(channel.via).toBe('playwright');
      const name = await electron.evaluate(({ app }) => app.getName());
      await expect(channel.run(GET_NAME, '')).resolves.toBe(name);
    } finally {
      other.child.kill('SIGKILL');
    }
  });
});

reportRealElectronSkipped('the main channel of a launched app');
