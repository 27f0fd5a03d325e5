import type { Bounds } from '../../contract/bounds.js';
import type { Screenshot } from '../../contract/window-driver.js';
import type { AtspiBus } from '../bus/atspi-bus.js';
import { captureScreen } from '../x11/x11-capture.js';
import { LazyX11 } from '../x11/x11-connection.js';
import { capturePixels, type RgbaImage } from '../x11/x11-screencast.js';
import { DeviceEvents } from './device-events.js';
import { Keyboard } from './keyboard.js';
import { Pointer } from './pointer.js';

/**
 * Keyboard, pointer and screen of a desktop, as one person at the machine would use them: what the window
 * driver falls back on where an accessible action or text call does not do what a click or a key does.
 *
 * Keys and clicks go through the accessibility registry's device event controller first (device-events.ts
 * says why), XTEST on the X server directly when it cannot deliver; captures read the X root window. One X
 * connection serves all of it, opened on first use: keys need its keyboard map, captures its pixels.
 */
export interface DesktopInput {
  /** Playwright key names: 'Enter', 'Tab', 'Control+a', 'Shift+Tab', 'a', 'ArrowDown', 'F5'. */
  pressKey(key: string): Promise<void>;
  typeText(text: string, delayMs?: number): Promise<void>;
  /** Screen pixels. */
  clickAt(x: number, y: number, button: 'left' | 'right' | 'middle', clickCount: number): Promise<void>;
  capture(region: Bounds | null, format: 'png' | 'jpeg', quality?: number): Promise<Screenshot>;
  /** Screen pixels of `region`, unencoded: what a screencast compares before it encodes. */
  capturePixels?(region: Bounds | null): Promise<RgbaImage>;
  /**
   * Moves the pointer (screen px) without clicking. Without a window manager the X keyboard focus follows
   * the pointer, so keys reach the window under it: move over a window before typing into it.
   */
  moveTo?(x: number, y: number): Promise<void>;
  /** Closes the X connection; the input is unusable afterwards. */
  dispose?(): Promise<void>;
}

export interface DesktopInputOptions {
  /** False sends keys and clicks through XTEST only (the registry's controller is not asked). */
  readonly deviceEvents?: boolean;
}

export function createDesktopInput(
  bus: AtspiBus,
  display: string,
  options: DesktopInputOptions = {},
): DesktopInput {
  const x = new LazyX11(display);
  const events = new DeviceEvents(
    bus,
    options.deviceEvents === false ? 'turned off by the caller' : undefined,
  );
  const keyboard = new Keyboard(events, x);
  const pointer = new Pointer(events, x);
  // One gesture at a time: a combo's modifiers must not be held while another call's keys or clicks go.
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(gesture: () => Promise<T>): Promise<T> => {
    const next = last.then(gesture, gesture);
    last = next.catch(() => undefined);
    return next;
  };
  return {
    pressKey: (key) => inTurn(() => keyboard.press(key)),
    typeText: (text, delayMs) => inTurn(() => keyboard.type(text, delayMs)),
    clickAt: (atX, atY, button, clickCount) => inTurn(() => pointer.click(atX, atY, button, clickCount)),
    moveTo: (atX, atY) => inTurn(() => pointer.move(atX, atY)),
    capture: async (region, format, quality) => captureScreen(await x.get(), region, format, quality),
    capturePixels: async (region) => capturePixels(await x.get(), region),
    dispose: () => x.close(),
  };
}
