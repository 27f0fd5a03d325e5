import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from 'graphql-ws';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import { ClickDocument, LaunchDocument, StopDocument } from './generated/graphql.js';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/browser.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import {
  type FixtureSession,
  type Loose,
  startFixtureSession,
  UNATTENDED_POLICY,
} from './helpers/fixture-session.js';
import { type RunningGateway, startGateway, wsClient } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';

const FRAME_FIELDS = 'sessionId windowId seq mimeType data width height capturedAt source droppedBefore';
const SCREENCAST = `subscription ($session: ID!, $window: ID, $maxFps: Int, $quality: Int, $maxWidth: Int) {
  screencast(session: $session, window: $window, maxFps: $maxFps, quality: $quality, maxWidth: $maxWidth) { ${FRAME_FIELDS} }
}`;
const ANIMATION_URL = pathToFileURL(
  new URL('../fixtures/pages/screencast-animation.html', import.meta.url).pathname,
).href;
const WAIT = { timeout: 30_000 };

interface Frame {
  sessionId: string;
  windowId: string;
  seq: number;
  mimeType: string;
  data: string;
  width: number;
  height: number;
  capturedAt: string;
  source: string;
  droppedBefore: number;
}

/** One viewer over graphql-ws: what it received, whether its stream completed, and how it failed. */
function view(client: Client, variables: Record<string, unknown>) {
  const viewer = { frames: [] as Frame[], errors: [] as Loose[], completed: false };
  const dispose = client.subscribe<{ screencast: Frame }>(
    { query: SCREENCAST, variables },
    {
      next: (value) => {
        if (value.errors) viewer.errors.push(...value.errors);
        if (value.data) viewer.frames.push(value.data.screencast);
      },
      error: (error) => {
        viewer.errors.push(...(Array.isArray(error) ? error : [error]));
      },
      complete: () => {
        viewer.completed = true;
      },
    },
  );
  const last = () => viewer.frames.at(-1);
  return { ...viewer, viewer, dispose, last };
}

/** Decodes a frame's JPEG, checking its start and end markers, and returns its pixel size. */
function decode(frame: Frame): { width: number; height: number } {
  const bytes = Buffer.from(frame.data, 'base64');
  expect(bytes.length).toBeGreaterThan(100);
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  expect([bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd9]);
  const image = jpeg.decode(bytes, { useTArray: true });
  return { width: image.width, height: image.height };
}

/** A raw graphql-ws client that keeps counts, not frames, and can stop reading its socket. */
async function rawViewer(url: string, variables: Record<string, unknown>) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const tally = { acked: false, delivered: 0, dropped: 0 };
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Loose;
    if (message.type === 'connection_ack') tally.acked = true;
    const frame = message.payload?.data?.screencast;
    if (message.type !== 'next' || !frame) return;
    tally.delivered += 1;
    tally.dropped += frame.droppedBefore;
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await expect.poll(() => tally.acked, WAIT).toBe(true);
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SCREENCAST, variables } }));
  const tcp = (socket as unknown as { _socket: Socket })._socket;
  return { socket, tally, pause: () => tcp.pause(), resume: () => tcp.resume() };
}

describe('screencast on the launch transport (the fixture app on the Electron stand-in)', () => {
  let fixture: FixtureSession;
  let client: Client;

  beforeAll(async () => {
    // No keep-alive pings: a viewer that stops reading cannot answer them, and would be cut off after 12 s
    // on a machine where the stall takes longer than that to fill its socket.
    fixture = await startFixtureSession(STAND_IN, undefined, { keepAliveMs: 0 });
    client = wsClient(fixture.gateway.wsUrl);
  });
  afterAll(async () => {
    await client?.dispose();
    await fixture?.stop();
  });

  it('sends a viewer a JPEG of the window, and a changed one after an agent changes the page', async () => {
    const viewer = view(client, { session: fixture.sessionId, maxWidth: 400 });
    await expect.poll(() => viewer.frames.length, WAIT).toBeGreaterThan(0);
    const first = viewer.last() as Frame;
    expect(first).toMatchObject({
      sessionId: fixture.sessionId,
      windowId: 'w1',
      mimeType: 'image/jpeg',
      source: 'CDP_SCREENCAST',
      droppedBefore: 0,
    });
    const size = decode(first);
    expect(size).toEqual({ width: first.width, height: first.height });
    expect(first.width).toBeGreaterThan(0);
    expect(first.width).toBeLessThanOrEqual(400);

    await fixture.data(ClickDocument, { target: { testId: 'add-task' } });
    // A frame painted before the click can arrive after it: wait for one that shows the change.
    const showsChange = (frame: Frame) => frame.seq > first.seq && frame.data !== first.data;
    await expect.poll(() => viewer.frames.some(showsChange), WAIT).toBe(true);
    decode(viewer.frames.find(showsChange) as Frame);
    expect(viewer.errors).toEqual([]);
    viewer.dispose();
  });

  it('gives a second viewer of a running screencast its latest frame at once, without a repaint', async () => {
    const variables = { session: fixture.sessionId, maxWidth: 320 };
    const first = view(client, variables);
    await expect.poll(() => first.frames.length, WAIT).toBeGreaterThan(0);
    const secondClient = wsClient(fixture.gateway.wsUrl);
    const second = view(secondClient, variables);
    await expect.poll(() => second.frames.length, WAIT).toBeGreaterThan(0);
    // The page held still: the second viewer's frame is one the producer had already sent the first.
    const joined = second.frames[0] as Frame;
    expect(first.frames.map((frame) => frame.seq)).toContain(joined.seq);
    expect(joined).toMatchObject({
      droppedBefore: 0,
      data: first.frames.find((f) => f.seq === joined.seq)?.data,
    });
    first.dispose();
    second.dispose();
    await secondClient.dispose();
  });

  it('keeps sending to a reading viewer while another stops reading, and tells the slow one what it lost', async () => {
    await fixture.data(
      'mutation ($session: ID, $url: String!) { navigate(session: $session, to: { url: $url }) { status } }',
      { session: fixture.sessionId, url: `${ANIMATION_URL}?noise` },
    );
    // Noise at full quality: frames of several hundred kilobytes, so a few fill the stalled socket's buffers.
    const variables = { session: fixture.sessionId, maxFps: 10, quality: 100, maxWidth: 800 };
    const stalled = await rawViewer(fixture.gateway.wsUrl, variables);
    await expect.poll(() => stalled.tally.delivered, WAIT).toBeGreaterThan(0);
    stalled.pause();
    const reader = view(client, variables);
    // Many frames reach the reader while the stalled viewer's socket is not read at all.
    // A few of these frames fill the kernel's socket buffers (a handful of megabytes); the rest are the
    // gateway's to drop. A loaded machine produces noise frames slowly: wait while they come.
    await expect.poll(() => reader.frames.length, { timeout: 100_000 }).toBeGreaterThan(20);
    const seqs = reader.frames.map((frame) => frame.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    stalled.resume();
    // Reading again, it is told how many frames went past it while it did not read.
    await expect.poll(() => stalled.tally.dropped, WAIT).toBeGreaterThan(0);
    stalled.socket.close();
    reader.dispose();
  });

  it('refuses out-of-range arguments and an unknown window with registered codes, before any frame', async () => {
    for (const bad of [
      { maxFps: 0 },
      { maxFps: 31 },
      { quality: 5 },
      { maxWidth: 100 },
      { maxWidth: 5000 },
    ]) {
      const viewer = view(client, { session: fixture.sessionId, ...bad });
      await expect.poll(() => viewer.errors.length, WAIT).toBeGreaterThan(0);
      expect(viewer.errors[0]).toMatchObject({ extensions: { code: 'BAD_INPUT' } });
      expect(viewer.frames).toEqual([]);
    }
    const unknown = view(client, { session: fixture.sessionId, window: 'w99' });
    await expect.poll(() => unknown.errors.length, WAIT).toBeGreaterThan(0);
    expect(unknown.errors[0]).toMatchObject({ extensions: { code: 'WINDOW_NOT_FOUND' } });
    const noSession = view(client, { session: 's999' });
    await expect.poll(() => noSession.errors.length, WAIT).toBeGreaterThan(0);
    expect(noSession.errors[0]).toMatchObject({ extensions: { code: 'SESSION_NOT_FOUND' } });
  });

  it('works the same on the cdp transport: a Chromium started by launchCommand, its page animating', async () => {
    const { launchCommand } = await fixture.data(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id transport } }',
      {
        input: {
          command: CHROMIUM,
          args: [...CHROMIUM_ARGS, '--headless', '--window-size=640,480', ANIMATION_URL],
        },
      },
    );
    expect(launchCommand.transport).toBe('cdp');
    const viewer = view(client, { session: launchCommand.id, maxWidth: 320 });
    // An animating page repaints all the time: several frames come without anyone acting.
    await expect.poll(() => viewer.frames.length, WAIT).toBeGreaterThan(2);
    const frame = viewer.last() as Frame;
    expect(frame).toMatchObject({ source: 'CDP_SCREENCAST', windowId: 'w1' });
    expect(decode(frame).width).toBeLessThanOrEqual(320);
    await fixture.data(StopDocument, { id: launchCommand.id });
    await expect.poll(() => viewer.viewer.completed, WAIT).toBe(true);
    expect(viewer.errors).toEqual([]);
  });

  it('completes the stream when the session ends', async () => {
    const { launch } = await fixture.data(LaunchDocument, { input: fixtureLaunch() });
    const viewer = view(client, { session: launch!.id });
    await expect.poll(() => viewer.frames.length, WAIT).toBeGreaterThan(0);
    await fixture.data(StopDocument, { id: launch!.id });
    await expect.poll(() => viewer.viewer.completed, WAIT).toBe(true);
    expect(viewer.errors).toEqual([]);
  });
});

if (!DESKTOP_AVAILABLE) {
  describe.skip(`screencast of a desktop app over AT-SPI (${desktopSkipReason})`, () => {
    it('sends X11 captures of the window, a changed one after an agent acts, and ends with the session', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('screencast of a desktop app over AT-SPI, on a desktop of its own', () => {
  let gateway: RunningGateway;
  let client: Client;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-screencast-desktop-'));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir, policyFile: UNATTENDED_POLICY }, [
      createAtspiTransport({ environment: withoutDesktop() }),
    ]);
    client = wsClient(gateway.wsUrl);
  });
  afterAll(async () => {
    await client?.dispose();
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('sends X11 captures of the window, a changed one after an agent acts, and ends with the session', async () => {
    const api = gatewayClient(gateway.url);
    const { launchDesktop } = await api.data(
      'mutation ($input: LaunchDesktopInput!) { launchDesktop(input: $input) { id } }',
      { input: { command: SYSTEM_PYTHON, args: [FIXTURE_APP], timeoutMs: 60_000 } },
    );
    const session = launchDesktop.id;
    const viewer = view(client, { session, window: 'w1', maxWidth: 1920 });
    await expect.poll(() => viewer.frames.length, WAIT).toBeGreaterThan(0);
    const first = viewer.last() as Frame;
    expect(first).toMatchObject({ source: 'X11_CAPTURE', windowId: 'w1', mimeType: 'image/jpeg' });
    expect(decode(first)).toEqual({ width: first.width, height: first.height });

    await api.data(
      `mutation { fill(session: "${session}", target: { role: "textbox", name: "Name" }, value: "Screencast") { windowId } }`,
    );
    await expect.poll(() => viewer.frames.some((frame) => frame.seq > first.seq), WAIT).toBe(true);
    expect((viewer.last() as Frame).data).not.toBe(first.data);

    await api.data(StopDocument, { id: session });
    await expect.poll(() => viewer.viewer.completed, WAIT).toBe(true);
    expect(viewer.errors).toEqual([]);
  });
});
