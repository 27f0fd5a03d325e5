import { createRequire } from 'node:module';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { FAKE, type KeyPlace, type LazyX11 } from '../x11/x11-connection.js';
import type { DeviceEvents } from './device-events.js';

/** X keysym names (`XK_Return` → { code }), for keys named in X's terms rather than Playwright's. */
const X_KEYSYMS = createRequire(import.meta.url)('x11/lib/keysyms.js') as Record<string, { code: number }>;

/** The device event controller's GenerateKeyboardEvent types. */
const KEY_PRESS = 0;
const KEY_RELEASE = 1;
const KEY_PRESSRELEASE = 2;
const KEY_SYM = 3;
const KEY_STRING = 4;

const SHIFT_L = 0xffe1;

/** Playwright's modifier names → the keysyms that press them (Meta is the Super key on an X keyboard). */
const MODIFIERS: Record<string, readonly number[]> = {
  Shift: [SHIFT_L],
  Control: [0xffe3],
  ControlOrMeta: [0xffe3],
  Alt: [0xffe9],
  Meta: [0xffeb, 0xffe7],
};

/** Playwright's key names (its US layout's `key` and `code` values) → X keysyms. */
const NAMED_KEYS: Record<string, number> = {
  Enter: 0xff0d,
  NumpadEnter: 0xff8d,
  Tab: 0xff09,
  Backspace: 0xff08,
  Delete: 0xffff,
  Escape: 0xff1b,
  Insert: 0xff63,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55,
  PageDown: 0xff56,
  ArrowLeft: 0xff51,
  ArrowUp: 0xff52,
  ArrowRight: 0xff53,
  ArrowDown: 0xff54,
  Space: 0x20,
  CapsLock: 0xffe5,
  NumLock: 0xff7f,
  ScrollLock: 0xff14,
  Pause: 0xff13,
  PrintScreen: 0xff61,
  ContextMenu: 0xff67,
  Minus: 0x2d,
  Equal: 0x3d,
  Backquote: 0x60,
  BracketLeft: 0x5b,
  BracketRight: 0x5d,
  Backslash: 0x5c,
  Semicolon: 0x3b,
  Quote: 0x27,
  Comma: 0x2c,
  Period: 0x2e,
  Slash: 0x2f,
  NumpadAdd: 0xffab,
  NumpadSubtract: 0xffad,
  NumpadMultiply: 0xffaa,
  NumpadDivide: 0xffaf,
  NumpadDecimal: 0xffae,
  ShiftLeft: 0xffe1,
  ShiftRight: 0xffe2,
  ControlLeft: 0xffe3,
  ControlRight: 0xffe4,
  AltLeft: 0xffe9,
  AltRight: 0xffea,
  MetaLeft: 0xffeb,
  MetaRight: 0xffec,
};

/** The keysym X gives a character: Latin-1 is its own code, the rest of Unicode is offset by 0x1000000. */
export function keysymOfChar(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  if (char === '\n' || char === '\r') return NAMED_KEYS.Enter as number;
  if (char === '\t') return NAMED_KEYS.Tab as number;
  return 0x1000000 + code;
}

/** A Playwright key name's keysym: a named key, a code (KeyA, Digit1, F5, Numpad7), one character, or an X name. */
export function keysymOfKey(name: string): number {
  const named = NAMED_KEYS[name];
  if (named !== undefined) return named;
  const code = /^(?:Key([A-Z])|Digit([0-9])|F([1-9]|1[0-9]|2[0-4])|Numpad([0-9]))$/.exec(name);
  if (code?.[1]) return code[1].toLowerCase().charCodeAt(0);
  if (code?.[2]) return code[2].charCodeAt(0);
  if (code?.[3]) return 0xffbe + Number(code[3]) - 1;
  if (code?.[4]) return 0xffb0 + Number(code[4]);
  if ([...name].length === 1) return keysymOfChar(name);
  const x = X_KEYSYMS[`XK_${name}`];
  if (x) return x.code;
  throw new StagegraphError('BAD_INPUT', `Unknown key: "${name}".`, {
    hint: "Name keys as Playwright does: 'Enter', 'Tab', 'ArrowDown', 'F5', 'a', 'Control+a', 'Shift+Tab'.",
  });
}

/** `Control+Shift+a` → modifiers and key; a `+` that ends the string is the key itself (Playwright's rule). */
export function splitKeyCombo(combo: string): { modifiers: string[]; key: string } {
  const tokens: string[] = [];
  let token = '';
  for (const char of combo) {
    if (char === '+' && token) {
      tokens.push(token);
      token = '';
    } else {
      token += char;
    }
  }
  tokens.push(token);
  const key = tokens.pop() ?? '';
  if (!key) throw new StagegraphError('BAD_INPUT', `Unknown key: "${combo}".`);
  for (const modifier of tokens) {
    if (!MODIFIERS[modifier]) {
      throw new StagegraphError('BAD_INPUT', `Unknown modifier "${modifier}" in "${combo}".`, {
        hint: 'Modifiers are Shift, Control, Alt, Meta and ControlOrMeta.',
      });
    }
  }
  return { modifiers: tokens, key };
}

/**
 * The keyboard of a desktop. Keys the keyboard map has are pressed by keycode, modifiers held around them
 * as a person would (so Shift+Tab reaches the app as ISO_Left_Tab, its keyboard layout deciding); keys and
 * characters the map lacks go as keysyms or strings to the device event controller, which maps a spare
 * keycode for them. When the controller cannot deliver, XTEST presses what the map has.
 */
export class Keyboard {
  readonly #events: DeviceEvents;
  readonly #x: LazyX11;

  constructor(events: DeviceEvents, x: LazyX11) {
    this.#events = events;
    this.#x = x;
  }

  async #keymap(): Promise<Map<number, KeyPlace>> {
    return (await this.#x.get()).keymap();
  }

  async press(combo: string): Promise<void> {
    const { modifiers, key } = splitKeyCombo(combo);
    const keysym = keysymOfKey(key);
    const keymap = await this.#keymap();
    const held = modifiers.map((modifier) => modifierKeycode(modifier, keymap));
    const place = keymap.get(keysym);
    if (place?.shifted && !modifiers.includes('Shift')) held.push(placeOf(SHIFT_L, keymap, 'Shift').keycode);
    const strokes: KeyStroke[] = [
      ...held.map((keycode) => ({ keycode, type: KEY_PRESS })),
      place ? { keycode: place.keycode, type: KEY_PRESSRELEASE } : { keysym, type: KEY_SYM },
      ...held.reverse().map((keycode) => ({ keycode, type: KEY_RELEASE })),
    ];
    await this.#send(strokes, key);
  }

  /** Types text as characters (newlines as Enter), `delayMs` between characters when given. */
  async type(text: string, delayMs = 0): Promise<void> {
    if (!text) return;
    if (delayMs > 0) {
      let first = true;
      for (const char of text) {
        if (!first) await new Promise((resolve) => setTimeout(resolve, delayMs));
        first = false;
        await this.#typeRun(char);
      }
      return;
    }
    for (const run of text.split(/(\r\n|[\r\n\t])/)) if (run) await this.#typeRun(run);
  }

  async #typeRun(run: string): Promise<void> {
    if (run === '\t') return this.press('Tab');
    if (run === '\n' || run === '\r' || run === '\r\n') return this.press('Enter');
    if (await this.#events.keyboard(0, run, KEY_STRING)) return;
    const keymap = await this.#keymap();
    const strokes: KeyStroke[] = [];
    for (const char of run) {
      const place = placeOf(keysymOfChar(char), keymap, char);
      strokes.push({ keycode: place.keycode, type: KEY_PRESSRELEASE, shifted: place.shifted });
    }
    await this.#fake(strokes, keymap);
  }

  /** Through the device event controller while it delivers; what it did not deliver, through XTEST. */
  async #send(strokes: readonly KeyStroke[], what: string): Promise<void> {
    for (const [index, stroke] of strokes.entries()) {
      const delivered =
        stroke.keysym === undefined
          ? await this.#events.keyboard(stroke.keycode ?? 0, '', stroke.type)
          : await this.#events.keyboard(stroke.keysym, '', KEY_SYM);
      if (delivered) continue;
      const keymap = await this.#keymap();
      // A key XTEST cannot reach is left out, not the releases after it: modifiers must not stay held.
      let unreachable: StagegraphError | undefined;
      const rest = strokes.slice(index).flatMap((left) => {
        if (left.keysym === undefined) return [left];
        try {
          const place = placeOf(left.keysym, keymap, what);
          return [{ keycode: place.keycode, type: KEY_PRESSRELEASE, shifted: place.shifted }];
        } catch (error) {
          unreachable = error as StagegraphError;
          return [];
        }
      });
      await this.#fake(rest, keymap);
      if (unreachable) throw unreachable;
      return;
    }
  }

  async #fake(strokes: readonly KeyStroke[], keymap: Map<number, KeyPlace>): Promise<void> {
    const shift = placeOf(SHIFT_L, keymap, 'Shift').keycode;
    const events: { type: number; detail: number }[] = [];
    for (const { keycode = 0, type, shifted } of strokes) {
      if (shifted) events.push({ type: FAKE.keyPress, detail: shift });
      if (type !== KEY_RELEASE) events.push({ type: FAKE.keyPress, detail: keycode });
      if (type !== KEY_PRESS) events.push({ type: FAKE.keyRelease, detail: keycode });
      if (shifted) events.push({ type: FAKE.keyRelease, detail: shift });
    }
    await (await this.#x.get()).fakeInput(events);
  }
}

interface KeyStroke {
  readonly keycode?: number;
  readonly keysym?: number;
  readonly type: number;
  /** For XTEST: hold Shift around this key. */
  readonly shifted?: boolean;
}

function placeOf(keysym: number, keymap: Map<number, KeyPlace>, what: string): KeyPlace {
  const place = keymap.get(keysym);
  if (place) return place;
  throw new StagegraphError(
    'BAD_INPUT',
    `"${what}" has no key on this X keyboard, and the accessibility device event controller that maps one is unavailable.`,
  );
}

function modifierKeycode(modifier: string, keymap: Map<number, KeyPlace>): number {
  for (const keysym of MODIFIERS[modifier] ?? []) {
    const place = keymap.get(keysym);
    if (place) return place.keycode;
  }
  return placeOf(-1, keymap, modifier).keycode;
}
