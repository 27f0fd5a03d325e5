import {
  ACCESSIBLE_IFACE,
  type AccessibleRef,
  type AtspiBus,
  type AtspiSignal,
  ROOT_PATH,
  whenGone,
} from './atspi-bus.js';

/** ATSPI_ROLE_POPUP_MENU. */
const POPUP_MENU_ROLE = 41;
/** Objects shown and not yet hidden that are remembered; the oldest go first. */
const MAX_SHOWN = 256;

/**
 * The menus a Qt app pops up on their own while they show: a context menu, a tool button's menu, each a
 * QMenu run by exec() or popup(). Qt gives such a menu the application as its parent, yet the application
 * does not list it (Qt lists its top-level windows except popups), no window holds it and no window:create
 * announces it: the only trace is the StateChanged `showing` Qt sends on the menu as it shows and hides.
 * Those are followed here; whether an object that showed is such a menu (a popup menu whose parent is the
 * application, not a menu bar's menu, whose parent is its menu item) is asked once per object.
 */
export class QtPopups {
  readonly #bus: AtspiBus;
  readonly #busName: string;
  /** Paths of objects that showed and have not hidden since, oldest first. */
  readonly #shown = new Set<string>();
  readonly #isPopup = new Map<string, Promise<boolean>>();
  readonly #unsubscribe: () => void;

  constructor(bus: AtspiBus, busName: string) {
    this.#bus = bus;
    this.#busName = busName;
    this.#unsubscribe = bus.onSignal((signal) => this.#onSignal(signal));
  }

  /** The app's popped-up menus showing now, in the order they showed. */
  async showing(): Promise<AccessibleRef[]> {
    const paths = [...this.#shown];
    const popups = await Promise.all(paths.map((path) => this.#popup(path)));
    return paths.filter((_, index) => popups[index]).map((path) => ({ busName: this.#busName, path }));
  }

  stop(): void {
    this.#unsubscribe();
  }

  #onSignal(signal: AtspiSignal): void {
    if (signal.sender !== this.#busName || signal.member !== 'StateChanged') return;
    if (String(signal.body[0] ?? '') !== 'showing') return;
    this.#shown.delete(signal.path);
    if (signal.body[1] !== 1) return;
    this.#shown.add(signal.path);
    if (this.#shown.size > MAX_SHOWN) this.#shown.delete(this.#shown.values().next().value as string);
  }

  #popup(path: string): Promise<boolean> {
    let known = this.#isPopup.get(path);
    if (!known) {
      const ref = { busName: this.#busName, path };
      known = Promise.all([
        this.#bus.call(ref.busName, path, ACCESSIBLE_IFACE, 'GetRole'),
        this.#bus.property(ref, ACCESSIBLE_IFACE, 'Parent'),
      ])
        .then(([[role], parent]) => role === POPUP_MENU_ROLE && (parent as string[])[1] === ROOT_PATH)
        .catch(whenGone(false));
      // A timeout is no answer: asked again next time.
      known.catch(() => this.#isPopup.delete(path));
      this.#isPopup.set(path, known);
    }
    return known;
  }
}
