import type { WindowInfo } from '../../contract/transport-events.js';
import type { AccessibleRef, AtspiBus, AtspiSignal } from './atspi-bus.js';
import { ROOT_PATH } from './atspi-bus.js';
import { nameOf, windowRefs } from './registered-apps.js';

/**
 * A window that appeared without a title is announced once its name is read, or after this at most:
 * an app inside a modal loop opened by an action (GTK's dialog.run()) can answer no calls until the loop
 * ends, though its signals still arrive — the dialog's window:create carries its title.
 */
const TITLE_WAIT_MS = 2_000;

export type WindowEvent =
  | { readonly type: 'window-opened'; readonly window: WindowInfo }
  | { readonly type: 'window-closed'; readonly window: WindowInfo };

interface TrackedWindow {
  readonly id: string;
  readonly ref: AccessibleRef;
  title: string;
  announced: boolean;
}

/** What a session's window url is: the window's accessible object, as `atspi://<bus name><object path>`. */
export function windowUrl(ref: AccessibleRef): string {
  return `atspi://${ref.busName}${ref.path}`;
}

/**
 * The top-level windows of one application, ids `w1`, `w2`, ... in the order they opened, never reused.
 * The root's children are read once; from then on the app's own signals keep the list: children-changed
 * on its root and window:create / window:destroy add and remove windows, accessible-name changes retitle
 * them, window:activate / deactivate say which is active. Listing never calls the app, so a busy app
 * still lists its windows.
 */
export class AppWindows {
  readonly #bus: AtspiBus;
  readonly #app: AccessibleRef;
  readonly #emit: (event: WindowEvent) => void;
  readonly #byShowing: boolean;
  /** By object path, in opening order. */
  readonly #open = new Map<string, TrackedWindow>();
  #next = 1;
  #activePath: string | null = null;
  #unsubscribe: (() => void) | undefined;

  /**
   * `byShowing`: the app announces windows only by showing and activating them, as Qt 5 and 6 do — no
   * window:create or children-changed on its root when one opens, no window:destroy when it closes, only
   * window:activate and, on closing, its SHOWING cleared. Then a window activated that is not listed opens,
   * and a listed one that stops showing closes.
   */
  constructor(bus: AtspiBus, app: AccessibleRef, emit: (event: WindowEvent) => void, byShowing = false) {
    this.#bus = bus;
    this.#app = app;
    this.#emit = emit;
    this.#byShowing = byShowing;
  }

  /** Follows the app's signals, then takes the windows already open (announcing each). */
  async start(): Promise<void> {
    this.#unsubscribe = this.#bus.onSignal((signal) => this.#onSignal(signal));
    const refs = await windowRefs(this.#bus, this.#app);
    const titles = await Promise.all(refs.map((ref) => nameOf(this.#bus, ref)));
    for (const [index, ref] of refs.entries()) this.#opened(ref, titles[index]);
  }

  list(): WindowInfo[] {
    return [...this.#open.values()].map(infoOf);
  }

  refOf(windowId: string): AccessibleRef | undefined {
    return [...this.#open.values()].find((window) => window.id === windowId)?.ref;
  }

  refs(): AccessibleRef[] {
    return [...this.#open.values()].map((window) => window.ref);
  }

  /** The window the app last reported activated; null when none is (no window manager activates any). */
  activeId(): string | null {
    return this.#activePath === null ? null : (this.#open.get(this.#activePath)?.id ?? null);
  }

  stop(): void {
    this.#unsubscribe?.();
  }

  #onSignal(signal: AtspiSignal): void {
    if (signal.sender !== this.#app.busName) return;
    const detail = String(signal.body[0] ?? '');
    const value = variantValue(signal.body[3]);
    if (signal.interface === 'org.a11y.atspi.Event.Object') {
      if (signal.member === 'ChildrenChanged' && signal.path === ROOT_PATH) {
        const ref = childOf(signal);
        if (!ref) return;
        if (detail.startsWith('add')) this.#opened(ref, undefined);
        else if (detail.startsWith('remove')) this.#closed(ref.path);
      } else if (signal.member === 'PropertyChange' && detail === 'accessible-name') {
        const window = this.#open.get(signal.path);
        if (window && typeof value === 'string') window.title = value;
      } else if (this.#byShowing && signal.member === 'StateChanged' && detail === 'showing') {
        if (signal.body[1] === 0) this.#closed(signal.path);
      }
      return;
    }
    if (signal.interface !== 'org.a11y.atspi.Event.Window') return;
    const ref = { busName: signal.sender, path: signal.path };
    switch (signal.member) {
      case 'Create':
        this.#opened(ref, typeof value === 'string' ? value : undefined);
        return;
      case 'Destroy':
        this.#closed(signal.path);
        return;
      case 'Activate':
        if (this.#byShowing) this.#opened(ref, typeof value === 'string' ? value : undefined);
        this.#activePath = signal.path;
        return;
      case 'Deactivate':
        if (this.#activePath === signal.path) this.#activePath = null;
        return;
    }
  }

  #opened(ref: AccessibleRef, title: string | undefined): void {
    let window = this.#open.get(ref.path);
    if (!window) {
      window = { id: `w${this.#next++}`, ref, title: '', announced: false };
      this.#open.set(ref.path, window);
      if (title === undefined) void this.#announceOnceTitled(window);
    }
    if (title !== undefined && window.title === '') window.title = title;
    if (title !== undefined) this.#announce(window);
  }

  async #announceOnceTitled(window: TrackedWindow): Promise<void> {
    const title = await Promise.race([
      nameOf(this.#bus, window.ref),
      new Promise<undefined>((resolve) => setTimeout(resolve, TITLE_WAIT_MS)),
    ]);
    if (title && window.title === '') window.title = title;
    this.#announce(window);
  }

  #announce(window: TrackedWindow): void {
    if (window.announced || this.#open.get(window.ref.path) !== window) return;
    window.announced = true;
    this.#emit({ type: 'window-opened', window: infoOf(window) });
  }

  #closed(path: string): void {
    const window = this.#open.get(path);
    if (!window) return;
    this.#open.delete(path);
    if (this.#activePath === path) this.#activePath = null;
    if (window.announced) this.#emit({ type: 'window-closed', window: infoOf(window) });
  }
}

function infoOf(window: TrackedWindow): WindowInfo {
  return { id: window.id, title: window.title, url: windowUrl(window.ref) };
}

/** A signal's `any data` argument, unwrapped from its variant. */
function variantValue(argument: unknown): unknown {
  return argument !== null && typeof argument === 'object' && 'value' in argument
    ? (argument as { value: unknown }).value
    : argument;
}

/**
 * The child a ChildrenChanged names. GTK 4.8 sends the root itself where the child belongs and the new
 * window's reference in the last argument instead; that is taken when the first names the root.
 */
function childOf(signal: AtspiSignal): AccessibleRef | undefined {
  const ref = refValue(variantValue(signal.body[3]));
  if (ref && ref.path !== ROOT_PATH) return ref;
  const late = refValue(variantValue(signal.body[4]));
  return late && late.path !== ROOT_PATH ? late : undefined;
}

function refValue(value: unknown): AccessibleRef | undefined {
  if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string') return undefined;
  return { busName: value[0], path: value[1] };
}
