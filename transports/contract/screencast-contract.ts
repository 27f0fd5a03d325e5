/**
 * A window's live view, as a transport produces it: JPEG frames pushed as the window repaints (or, where
 * the transport cannot be told of repaints, as a periodic capture changes). The domain shares one
 * producer among every viewer and drops frames per viewer; a transport only produces.
 */

/** How a frame was obtained: a CDP screencast, a periodic page screenshot, or an X server capture. */
export type ScreencastSource = 'CDP_SCREENCAST' | 'SCREENSHOT' | 'X11_CAPTURE';

export interface ScreencastOptions {
  /** Frames per second a periodic capture takes at most; a pushed screencast is limited by the domain. */
  readonly maxFps: number;
  /** JPEG quality, 0 to 100. */
  readonly quality: number;
  /** Frames wider than this are scaled down to it, keeping the aspect ratio. */
  readonly maxWidth: number;
}

export interface ScreencastImage {
  /** The JPEG, base64-encoded: what CDP hands over and what GraphQL sends, so it is encoded once. */
  readonly data: string;
  /** Pixel size of the JPEG itself (after any scaling). */
  readonly width: number;
  readonly height: number;
  readonly capturedAt: Date;
  readonly source: ScreencastSource;
}

export interface ScreencastHandle {
  /** Stops producing; no frame is delivered after it resolves. Safe to call more than once. */
  stop(): Promise<void>;
}

/** The per-window method a driver offers when it can show its window live (window-driver.ts). */
export type StartScreencast = (
  options: ScreencastOptions,
  onFrame: (frame: ScreencastImage) => void,
) => Promise<ScreencastHandle>;
