import type { Bounds } from '../contract/transport.js';
import type { Screenshot } from '../contract/window-driver.js';

/** Keyboard, pointer and screen capture on the desktop's X server: what AT-SPI itself cannot do. */
export interface DesktopInput {
  /** Playwright key names: 'Enter', 'Tab', 'Control+a', 'a'. */
  pressKey(key: string): Promise<void>;
  typeText(text: string, delayMs?: number): Promise<void>;
  /** Screen pixels. */
  clickAt(x: number, y: number, button: 'left' | 'right' | 'middle', clickCount: number): Promise<void>;
  /** The X server's pixels in `region` (the whole screen when null). */
  capture(region: Bounds | null, format: 'png' | 'jpeg', quality?: number): Promise<Screenshot>;
}
