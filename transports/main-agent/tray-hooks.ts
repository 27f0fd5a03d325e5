import type { TrayEventName, TrayInvocation, TrayState } from '../contract/native.js';
import type { ElectronLike, Loose } from './shapes.js';

export interface TrayHooks {
  /** `electron` as the app will see it: the same module, with Tray replaced by a subclass that registers. */
  readonly electron: Loose;
  list(): TrayState[];
  invoke(id: string, event: TrayEventName): TrayInvocation;
}

/**
 * Electron keeps no list of trays and no tooltip getter, so trays are only visible to hooks that were in
 * place before the app created them: the instrumented preload hands the app an `electron` whose Tray is a
 * registering subclass. Self-contained (shipped as source); `serialize` reads a tray's context menu.
 */
export function installTrayHooks(electron: ElectronLike, serialize: (menu: Loose) => Loose): TrayHooks {
  const Base = electron.Tray;
  const trays = new Map<
    string,
    { tray: Loose; tooltip: string; title: string; hasImage: boolean; menu: Loose }
  >();
  const states = new WeakMap<object, { tooltip: string; title: string; hasImage: boolean; menu: Loose }>();
  const imagePresent = (image: Loose) => {
    if (typeof image === 'string') return !electron.nativeImage?.createFromPath(image).isEmpty();
    return Boolean(image) && !(typeof image.isEmpty === 'function' && image.isEmpty());
  };
  class InstrumentedTray extends Base {
    constructor(image: Loose, ...rest: Loose[]) {
      super(image, ...rest);
      const state = { tooltip: '', title: '', hasImage: imagePresent(image), menu: null, tray: this };
      states.set(this, state);
      trays.set(`t${trays.size + 1}`, state);
    }
    setToolTip(toolTip: string) {
      const state = states.get(this);
      if (state) state.tooltip = String(toolTip);
      return super.setToolTip(toolTip);
    }
    setTitle(title: string, ...rest: Loose[]) {
      const state = states.get(this);
      if (state) state.title = String(title);
      return super.setTitle(title, ...rest);
    }
    setImage(image: Loose) {
      const state = states.get(this);
      if (state) state.hasImage = imagePresent(image);
      return super.setImage(image);
    }
    setContextMenu(menu: Loose) {
      const state = states.get(this);
      if (state) state.menu = menu;
      return super.setContextMenu(menu);
    }
  }
  const describe = (id: string): TrayState | null => {
    const state = trays.get(id);
    if (!state) return null;
    return {
      id,
      tooltip: state.tooltip,
      title: state.title,
      hasImage: state.hasImage,
      destroyed: state.tray.isDestroyed?.() === true,
      contextMenu: state.menu ? serialize(state.menu) : null,
    };
  };
  const modifiers = { altKey: false, shiftKey: false, ctrlKey: false, metaKey: false };
  return {
    // Reflect.get without a receiver: Electron's exports are getters that expect the real module as `this`.
    electron: new Proxy(electron, {
      get: (target, property) => (property === 'Tray' ? InstrumentedTray : Reflect.get(target, property)),
    }),
    list: () => [...trays.keys()].map((id) => describe(id) as TrayState),
    invoke(id, event) {
      const state = trays.get(id);
      if (!state || state.tray.isDestroyed?.() === true)
        return { emitted: false, reason: 'not_found', tray: describe(id) };
      if (state.tray.listenerCount(event) === 0)
        return { emitted: false, reason: 'no_listener', tray: describe(id) };
      const bounds = state.tray.getBounds?.() ?? { x: 0, y: 0, width: 0, height: 0 };
      const point = { x: bounds.x, y: bounds.y };
      // Electron's argument lists: click gets (event, bounds, position); mouse-enter/leave get (event, position).
      if (event === 'click') state.tray.emit(event, modifiers, bounds, point);
      else if (event === 'mouse-enter' || event === 'mouse-leave') state.tray.emit(event, modifiers, point);
      else state.tray.emit(event, modifiers, bounds);
      return { emitted: true, reason: null, tray: describe(id) };
    },
  };
}
