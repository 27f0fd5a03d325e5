import type { ScreenshotOptions } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { ACTION_TIMEOUT_DEFAULT_MS } from './action.js';
import { type WindowTargetRequest, windowTarget } from './window-target.js';

export interface ScreenshotRequest extends WindowTargetRequest {
  readonly format?: 'png' | 'jpeg' | null;
  readonly quality?: number | null;
  readonly fullPage?: boolean | null;
  /** Also write it to the session's artifact folder and return the path. */
  readonly save?: boolean | null;
}

export interface TakenScreenshot {
  readonly windowId: string;
  readonly format: 'png' | 'jpeg';
  readonly width: number;
  readonly height: number;
  readonly byteLength: number;
  readonly base64: string;
  readonly path: string | null;
}

export async function takeScreenshot(session: Session, request: ScreenshotRequest): Promise<TakenScreenshot> {
  const { window, driver, query } = await windowTarget(session, request);
  const format = request.format ?? 'png';
  const options: ScreenshotOptions = {
    format,
    ...(request.quality == null ? {} : { quality: Math.min(100, Math.max(0, request.quality)) }),
    ...(request.fullPage ? { fullPage: true } : {}),
    ...(query ? { target: query } : {}),
  };
  const shot = await driver.screenshot(options, ACTION_TIMEOUT_DEFAULT_MS);
  const path = request.save
    ? await session.artifacts.save('screenshots', window.id, format === 'png' ? 'png' : 'jpg', shot.bytes)
    : null;
  if (path) session.runLog.stagegraph(`screenshot of ${window.id} saved to ${path}`);
  return {
    windowId: window.id,
    format,
    width: shot.width,
    height: shot.height,
    byteLength: shot.bytes.length,
    base64: shot.bytes.toString('base64'),
    path,
  };
}
