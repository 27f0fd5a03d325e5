import type { CDPSession, Page } from 'playwright-core';
import type {
  ScreencastHandle,
  ScreencastImage,
  ScreencastOptions,
} from '../../contract/screencast-contract.js';
import { imageSize } from './image-size.js';
import { rawSessionsHear } from './page-cdp.js';

/** Base64 characters decoded to find a JPEG's size: its start-of-frame segment sits in the first few hundred bytes. */
const HEADER_BASE64_CHARS = 4_096;

interface ScreencastFrameEvent {
  readonly data: string;
  readonly sessionId: number;
  readonly metadata: { readonly timestamp?: number };
}

/**
 * A page's live view. Where the page's connection gives extra CDP sessions events of their own, Chromium
 * pushes a JPEG on every repaint (Page.startScreencast, on a session of this screencast's own, so several
 * option sets can run side by side); each frame is acked at once, so Chromium never waits on a viewer.
 * Behind the inject relay, where such a session would never hear a frame, the page is captured at maxFps
 * instead and a frame sent only when its bytes changed.
 */
export async function startPageScreencast(
  page: Page,
  options: ScreencastOptions,
  onFrame: (frame: ScreencastImage) => void,
): Promise<ScreencastHandle> {
  if (!rawSessionsHear(page.context())) return startPolledScreencast(page, options, onFrame);
  return startPushedScreencast(page, options, (event) => {
    const at = event.metadata.timestamp;
    onFrame({
      data: event.data,
      ...jpegSize(event.data),
      capturedAt: at === undefined ? new Date() : new Date(at * 1_000),
      source: 'CDP_SCREENCAST',
    });
  });
}

/** Each repaint's frame is this small: the watch only counts them, so Chromium's encoding costs next to nothing. */
const REPAINT_FRAME = { quality: 1, maxWidth: 16 } as const;

/**
 * Calls `onRepaint` each time the compositor paints the page anew (damage, a scroll, a resize, and also each
 * screenshot taken of it): a pushed screencast of tiny frames, which sends nothing while the page is still.
 * Null behind the inject relay, where such a screencast hears no frame and only a periodic capture could tell.
 */
export async function watchPageRepaints(page: Page, onRepaint: () => void): Promise<ScreencastHandle | null> {
  if (!rawSessionsHear(page.context())) return null;
  return startPushedScreencast(page, REPAINT_FRAME, onRepaint);
}

/** Page.startScreencast on a CDP session of its own; every frame is acked at once, then handed on. */
async function startPushedScreencast(
  page: Page,
  options: Pick<ScreencastOptions, 'quality' | 'maxWidth'>,
  onFrame: (event: ScreencastFrameEvent) => void,
): Promise<ScreencastHandle> {
  const cdp = await page.context().newCDPSession(page);
  let stopped = false;
  const onScreencastFrame = (event: ScreencastFrameEvent) => {
    cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    if (!stopped) onFrame(event);
  };
  cdp.on('Page.screencastFrame', onScreencastFrame);
  try {
    // Every frame, never every nth: a skipped frame may be the only one a still page paints after a change.
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: options.quality,
      maxWidth: options.maxWidth,
      everyNthFrame: 1,
    });
  } catch (error) {
    await cdp.detach().catch(() => undefined);
    throw error;
  }
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      cdp.off('Page.screencastFrame', onScreencastFrame);
      await cdp.send('Page.stopScreencast').catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/** A JPEG's pixel size from the start of its base64, decoding the whole only if the header runs longer. */
export function jpegSize(base64: string): { width: number; height: number } {
  try {
    return imageSize(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), 'base64'));
  } catch {
    return imageSize(Buffer.from(base64, 'base64'));
  }
}

/**
 * Captures the page at most `maxFps` times a second (one capture at a time, so a slow renderer lowers the
 * rate rather than piling captures up) and passes on a frame only when its bytes differ from the last.
 * Captures go through a CDP session of its own where one opens (the inject relay carries its commands,
 * not its events), so Chromium scales them to maxWidth; else through Playwright's screenshot, unscaled.
 */
async function startPolledScreencast(
  page: Page,
  options: ScreencastOptions,
  onFrame: (frame: ScreencastImage) => void,
): Promise<ScreencastHandle> {
  const cdp = await page
    .context()
    .newCDPSession(page)
    .catch(() => null);
  const intervalMs = 1_000 / options.maxFps;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let previous: string | undefined;
  let running: Promise<void> = Promise.resolve();
  const capture = async () => {
    const startedAt = performance.now();
    const data = await captureJpeg(page, cdp, options).catch(() => undefined);
    if (stopped) return;
    if (data !== undefined && data !== previous) {
      previous = data;
      onFrame({ data, ...jpegSize(data), capturedAt: new Date(), source: 'SCREENSHOT' });
    }
    if (page.isClosed()) return;
    timer = setTimeout(tick, Math.max(0, intervalMs - (performance.now() - startedAt)));
  };
  const tick = () => {
    running = capture();
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await cdp?.detach().catch(() => undefined);
    },
  };
}

/** One JPEG of the viewport, base64. */
async function captureJpeg(page: Page, cdp: CDPSession | null, options: ScreencastOptions): Promise<string> {
  if (!cdp) return (await page.screenshot({ type: 'jpeg', quality: options.quality })).toString('base64');
  const { width, height } = await page.evaluate(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
  }));
  const scale = Math.min(1, options.maxWidth / Math.max(1, width));
  const shot = await cdp.send('Page.captureScreenshot', {
    format: 'jpeg',
    quality: options.quality,
    clip: { x: 0, y: 0, width, height, scale },
  });
  return shot.data;
}
