import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { type AtspiBus, REGISTRY_BUS } from '../bus/atspi-bus.js';

const DEC_PATH = '/org/a11y/atspi/registry/deviceeventcontroller';
const DEC_IFACE = 'org.a11y.atspi.DeviceEventController';

/**
 * The registry's device event controller, the route keys and clicks take first: the registry synthesises
 * them with XTEST on the desktop's own display (so they reach the app as a person's would, and AT-SPI's
 * keystroke listeners hear them), and it maps a spare keycode for characters the keyboard lacks, which
 * plain XTEST cannot. The price is one D-Bus round trip per call: on Xvfb a click reached the app in a
 * median 3 ms through it against 1.6 ms through XTEST directly (desktop-input.test.ts measures it).
 * Once a call fails — no registry, a Wayland desktop, a registry that hangs — the controller is taken as
 * unable for the rest of this input's life and each method answers false, so the caller presses the same
 * thing through XTEST itself.
 */
export class DeviceEvents {
  readonly #bus: AtspiBus;
  #failure: string | undefined;

  /** With `off`, the controller is never asked: everything goes through XTEST, `off` saying why. */
  constructor(bus: AtspiBus, off?: string) {
    this.#bus = bus;
    this.#failure = off;
  }

  /** Why the controller is not used, once a call to it has failed; undefined while it delivers. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** GenerateKeyboardEvent(keycode, keystring, type); false when the controller cannot deliver. */
  keyboard(keycode: number, keystring: string, type: number): Promise<boolean> {
    return this.#call('GenerateKeyboardEvent', 'isu', [keycode, keystring, type]);
  }

  /** GenerateMouseEvent(x, y, name): `b1c` clicks button 1 there, `b1d` double-clicks, `abs` moves. */
  mouse(x: number, y: number, name: string): Promise<boolean> {
    return this.#call('GenerateMouseEvent', 'iis', [x, y, name]);
  }

  async #call(member: string, signature: string, body: unknown[]): Promise<boolean> {
    if (this.#failure !== undefined || this.#bus.closed) return false;
    try {
      await this.#bus.call(REGISTRY_BUS, DEC_PATH, DEC_IFACE, member, signature, body);
      return true;
    } catch (error) {
      if (!(error instanceof StagegraphError)) throw error;
      this.#failure = error.message;
      return false;
    }
  }
}
