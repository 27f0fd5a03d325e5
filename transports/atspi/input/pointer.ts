import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { FAKE, type LazyX11 } from '../x11/x11-connection.js';
import type { DeviceEvents } from './device-events.js';

export type MouseButton = 'left' | 'right' | 'middle';

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };

/**
 * The pointer of a desktop: a click moves there and presses the button `clickCount` times. Pairs go as
 * one double-click (`bNd`) so the presses land within the toolkit's double-click time even when the bus
 * is slow; through XTEST every press is sent in one batch for the same reason.
 */
export class Pointer {
  readonly #events: DeviceEvents;
  readonly #x: LazyX11;

  constructor(events: DeviceEvents, x: LazyX11) {
    this.#events = events;
    this.#x = x;
  }

  async click(x: number, y: number, button: MouseButton, clickCount: number): Promise<void> {
    const number = BUTTONS[button];
    if (number === undefined) {
      throw new StagegraphError('BAD_INPUT', `Unknown mouse button "${String(button)}".`, {
        hint: 'Use left, right or middle.',
      });
    }
    if (!Number.isInteger(clickCount) || clickCount < 1) {
      throw new StagegraphError(
        'BAD_INPUT',
        `clickCount must be a whole number of at least 1 (got ${clickCount}).`,
      );
    }
    const at = onScreen(x, y);
    const names = [
      ...Array.from({ length: Math.floor(clickCount / 2) }, () => `b${number}d`),
      ...(clickCount % 2 ? [`b${number}c`] : []),
    ];
    for (const [index, name] of names.entries()) {
      if (await this.#events.mouse(at.x, at.y, name)) continue;
      const left = clickCount - index * 2;
      return this.#fake(at, number, left);
    }
  }

  /** Moves the pointer there without a click: a hover, and on a desktop without a window manager, where
   * the keyboard follows the pointer, what decides which window the next keys reach. */
  async move(x: number, y: number): Promise<void> {
    const at = onScreen(x, y);
    if (await this.#events.mouse(at.x, at.y, 'abs')) return;
    await (await this.#x.get()).fakeInput([{ type: FAKE.motion, detail: 0, ...at }]);
  }

  async #fake(at: { x: number; y: number }, button: number, count: number): Promise<void> {
    const events: { type: number; detail: number; x: number; y: number }[] = [
      { type: FAKE.motion, detail: 0, ...at },
    ];
    for (let press = 0; press < count; press++) {
      events.push(
        { type: FAKE.buttonPress, detail: button, ...at },
        { type: FAKE.buttonRelease, detail: button, ...at },
      );
    }
    await (await this.#x.get()).fakeInput(events);
  }
}

function onScreen(x: number, y: number): { x: number; y: number } {
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new StagegraphError('BAD_INPUT', `The pointer needs finite screen coordinates (got ${x}, ${y}).`);
  }
  return { x: Math.round(x), y: Math.round(y) };
}
