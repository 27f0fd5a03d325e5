import { createRequire } from 'node:module';
import { StagegraphError } from '../../../errors/stagegraph-error.js';

/**
 * One connection to a desktop's X server through the `x11` package (a pure JS client, no native build):
 * the screen's pixels for captures, the keyboard map that turns keysyms into keycodes, and XTEST's fake
 * input for when the accessibility bus's device event controller cannot deliver. The package ships no
 * types; the little of it used here is typed below.
 */

type X11Reply<T> = (error: Error | null, result: T) => void;

interface X11Image {
  readonly depth: number;
  readonly data: Buffer;
}

interface X11Xtest {
  FakeInput(type: number, detail: number, time: number, window: number, x: number, y: number): void;
}

interface X11Client {
  GetImage(
    format: number,
    drawable: number,
    x: number,
    y: number,
    width: number,
    height: number,
    planeMask: number,
    callback: X11Reply<X11Image>,
  ): void;
  GetKeyboardMapping(first: number, count: number, callback: X11Reply<number[][]>): void;
  GetInputFocus(callback: X11Reply<unknown>): void;
  require(extension: 'xtest', callback: X11Reply<X11Xtest>): void;
  close(callback: (error?: Error) => void): void;
  terminate(): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
}

interface X11Visual {
  readonly red_mask: number;
  readonly green_mask: number;
  readonly blue_mask: number;
}

interface X11Display {
  readonly client: X11Client;
  readonly image_byte_order: number;
  readonly min_keycode: number;
  readonly max_keycode: number;
  readonly format: Record<number, { bits_per_pixel: number }>;
  readonly screen: readonly {
    readonly root: number;
    readonly pixel_width: number;
    readonly pixel_height: number;
    readonly root_depth: number;
    readonly root_visual: number;
    readonly depths: Record<number, Record<number, X11Visual>>;
  }[];
}

interface X11Module {
  createClient(options: { display: string }, callback: X11Reply<X11Display>): void;
}

const x11 = createRequire(import.meta.url)('x11') as X11Module;

const Z_PIXMAP = 2;
const ALL_PLANES = 0xffffffff;
/** XTEST's FakeInput event types (the core protocol's event codes). */
export const FAKE = { keyPress: 2, keyRelease: 3, buttonPress: 4, buttonRelease: 5, motion: 6 } as const;

/** Where a keysym sits on the keyboard: its keycode, and whether Shift reaches it (the map's second column). */
export interface KeyPlace {
  readonly keycode: number;
  readonly shifted: boolean;
}

/** The screen's pixels as 32-bit words and how to read red, green and blue out of them. */
export interface ScreenImage {
  readonly width: number;
  readonly height: number;
  readonly data: Buffer;
  readonly bigEndian: boolean;
  readonly bitsPerPixel: number;
  readonly visual: X11Visual;
}

function unavailable(display: string, why: string): StagegraphError {
  return new StagegraphError('DESKTOP_UNAVAILABLE', `The X server ${display} ${why}.`);
}

export class X11Connection {
  readonly #display: X11Display;
  readonly #name: string;
  #keymap: Promise<Map<number, KeyPlace>> | undefined;
  #xtest: Promise<X11Xtest> | undefined;
  #lost: Error | undefined;
  /** Requests awaiting a reply, failed at once when the connection goes: a reply would never come. */
  readonly #pending = new Set<(error: Error) => void>();

  private constructor(display: X11Display, name: string) {
    this.#display = display;
    this.#name = name;
    display.client.on('error', (error) => {
      // The package also emits an X protocol error (it has the request's sequence number) after handing it
      // to the request's callback; only a failure of the connection itself ends it.
      if (typeof (error as { seq?: unknown } | undefined)?.seq === 'number') return;
      this.#lose(error ?? new Error('connection error'));
    });
    display.client.on('end', () => this.#lose(new Error('the server closed the connection')));
  }

  #lose(why: Error): void {
    this.#lost ??= why;
    const failure = unavailable(this.#name, `connection was lost (${why.message})`);
    for (const fail of this.#pending) fail(failure);
    this.#pending.clear();
  }

  /**
   * Connects, retrying while the server takes connections but drops them in setup: an X server whose last
   * client has gone resets itself and closes whoever connects meanwhile (seen under load on a just-started
   * Xvfb, whose first clients come and go). A display with nothing listening fails at once.
   */
  static async open(display: string, timeoutMs: number): Promise<X11Connection> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await X11Connection.#connect(display, Math.max(1, deadline - Date.now()));
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        const refused = ['ECONNREFUSED', 'ENOENT', 'EACCES', 'ENOTFOUND'].includes(code ?? '');
        if (refused || Date.now() >= deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  static #connect(display: string, timeoutMs: number): Promise<X11Connection> {
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(unavailable(display, `did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (error: Error) =>
        reject(
          new StagegraphError(
            'DESKTOP_UNAVAILABLE',
            `The X server ${display} could not be reached (${error.message}).`,
            {
              cause: error,
            },
          ),
        );
      try {
        x11.createClient({ display }, (error, opened) => {
          clearTimeout(timer);
          if (error) fail(error);
          else if (late) opened.client.terminate();
          else resolve(new X11Connection(opened, display));
        });
      } catch (error) {
        clearTimeout(timer);
        fail(error as Error);
      }
    });
  }

  get lost(): boolean {
    return this.#lost !== undefined;
  }

  get screenSize(): { width: number; height: number } {
    const screen = this.#screen();
    return { width: screen.pixel_width, height: screen.pixel_height };
  }

  /** A request's reply; a lost connection or an X error is DESKTOP_UNAVAILABLE naming the request. */
  #request<T>(what: string, send: (callback: X11Reply<T>) => void): Promise<T> {
    if (this.#lost)
      return Promise.reject(unavailable(this.#name, `connection was lost (${this.#lost.message})`));
    return new Promise((resolve, reject) => {
      this.#pending.add(reject);
      send((error, result) => {
        this.#pending.delete(reject);
        if (error) reject(unavailable(this.#name, `refused ${what} (${error.message})`));
        else resolve(result);
      });
    });
  }

  #screen() {
    const screen = this.#display.screen[0];
    if (!screen) throw unavailable(this.#name, 'has no screen');
    return screen;
  }

  /** The rectangle of the root window, in the server's pixel format. */
  async image(x: number, y: number, width: number, height: number): Promise<ScreenImage> {
    const screen = this.#screen();
    const image = await this.#request<X11Image>('GetImage', (callback) =>
      this.#display.client.GetImage(Z_PIXMAP, screen.root, x, y, width, height, ALL_PLANES, callback),
    );
    const visual = screen.depths[screen.root_depth]?.[screen.root_visual];
    const bitsPerPixel = this.#display.format[image.depth]?.bits_per_pixel ?? 0;
    if (!visual) throw unavailable(this.#name, 'did not describe its root visual');
    return {
      width,
      height,
      data: image.data,
      bigEndian: this.#display.image_byte_order === 1,
      bitsPerPixel,
      visual,
    };
  }

  /** keysym → where it is on the keyboard, read once (the lowest column wins: unshifted before shifted). */
  keymap(): Promise<Map<number, KeyPlace>> {
    this.#keymap ??= (async () => {
      const { min_keycode: first, max_keycode: last } = this.#display;
      const rows = await this.#request<number[][]>('GetKeyboardMapping', (callback) =>
        this.#display.client.GetKeyboardMapping(first, last - first + 1, callback),
      );
      const places = new Map<number, KeyPlace>();
      for (const column of [0, 1]) {
        rows.forEach((row, index) => {
          const keysym = row[column];
          if (keysym && !places.has(keysym))
            places.set(keysym, { keycode: first + index, shifted: column === 1 });
        });
      }
      return places;
    })();
    return this.#keymap;
  }

  /** Sends XTEST fake events in order, then waits for a round trip so they have been processed. */
  async fakeInput(
    events: readonly { type: number; detail: number; x?: number; y?: number }[],
  ): Promise<void> {
    this.#xtest ??= this.#request<X11Xtest>('the XTEST extension', (callback) =>
      this.#display.client.require('xtest', callback),
    );
    const xtest = await this.#xtest;
    const root = this.#screen().root;
    for (const event of events)
      xtest.FakeInput(event.type, event.detail, 0, root, event.x ?? 0, event.y ?? 0);
    await this.#request('GetInputFocus', (callback) => this.#display.client.GetInputFocus(callback));
  }

  close(): Promise<void> {
    if (this.#lost) return Promise.resolve();
    this.#lose(new Error('closed by its owner'));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#display.client.terminate();
        resolve();
      }, 2_000);
      this.#display.client.close(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The one X connection of a DesktopInput: opened on first use (tried again if that failed), closed by close(). */
export class LazyX11 {
  readonly #display: string;
  readonly #timeoutMs: number;
  #connection: Promise<X11Connection> | undefined;
  #opened: X11Connection | undefined;
  #closed = false;

  constructor(display: string, timeoutMs = 10_000) {
    this.#display = display;
    this.#timeoutMs = timeoutMs;
  }

  get(): Promise<X11Connection> {
    if (this.#closed) return Promise.reject(unavailable(this.#display, 'connection was closed'));
    // A lost connection is not opened again: the server is gone with its desktop, and another desktop's
    // server may since have taken the same display number.
    if (this.#opened?.lost) return Promise.reject(unavailable(this.#display, 'connection was lost'));
    if (!this.#connection) {
      const opening = X11Connection.open(this.#display, this.#timeoutMs);
      this.#connection = opening;
      opening.then(
        (opened) => {
          this.#opened = opened;
        },
        () => {
          if (this.#connection === opening) this.#connection = undefined;
        },
      );
    }
    return this.#connection;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#opened = undefined;
    await connection?.then((opened) => opened.close()).catch(() => undefined);
  }
}
