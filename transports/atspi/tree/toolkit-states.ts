import type { PropertyReads } from '../bus/accessible-description.js';
import { type AtspiBus, ROOT_PATH, whenGone } from '../bus/atspi-bus.js';
import { STATE, type StateWords } from './atspi-states.js';

/**
 * Toolkits state the same things with different AT-SPI words. What each reports was read with pyatspi on
 * the fixtures (fixtures/desktop-app/) and checked against the toolkit's source:
 * - GTK 3 (atk-bridge, ToolkitName "gtk"): ENABLED and SENSITIVE when usable (an insensitive widget clears
 *   both, or SENSITIVE alone); VISIBLE when set visible, SHOWING when mapped on screen.
 * - GTK 4 and libadwaita (GTK's own AT-SPI code, gtkatspicontext.c, ToolkitName "GTK", version 4.x): VISIBLE
 *   on every object it presents (a hidden widget is left out of the tree), SENSITIVE unless disabled, and
 *   never ENABLED or SHOWING on a widget.
 * - Qt 5.15 and 6.4 (Qt's own bridge, ToolkitName "Qt", fixtures/desktop-app/qt_app.py): ENABLED and
 *   SENSITIVE together, VISIBLE and SHOWING together (both mean on screen): a closed menu's items have
 *   neither, so a snapshot shows them once their menu is open, and invokeMenuItem reaches them closed.
 * - Chromium and Electron with accessibility on (ToolkitName "Chromium"): as GTK 3.
 */
export type ToolkitFamily = 'gtk3' | 'gtk4' | 'qt' | 'chromium' | 'other';

export interface Toolkit {
  /** The app's ToolkitName, as it reports it. */
  readonly name: string;
  readonly version: string;
  readonly family: ToolkitFamily;
}

const APPLICATION_IFACE = 'org.a11y.atspi.Application';

export function toolkitOf(name: string, version: string): Toolkit {
  const lower = name.toLowerCase();
  const major = Number.parseInt(version, 10);
  let family: ToolkitFamily = 'other';
  if (lower === 'gtk' || lower === 'gtk+') family = major >= 4 ? 'gtk4' : 'gtk3';
  else if (lower.startsWith('qt')) family = 'qt';
  else if (lower === 'chromium' || lower === 'electron') family = 'chromium';
  return { name, version, family };
}

/**
 * The state words in AT-SPI's own meaning (ENABLED and SHOWING where the object is usable and presented),
 * so every later check reads one vocabulary whatever the toolkit: GTK 4's SENSITIVE is its ENABLED, and an
 * object it presents VISIBLE is shown (GTK 4 leaves out what it does not present).
 */
export function canonicalStates(words: StateWords, family: ToolkitFamily): StateWords {
  if (family !== 'gtk4') return words;
  let low = words[0];
  if (((low >>> STATE.SENSITIVE) & 1) === 1) low |= 1 << STATE.ENABLED;
  if (((low >>> STATE.VISIBLE) & 1) === 1) low |= 1 << STATE.SHOWING;
  return [low >>> 0, words[1]];
}

/** How an app's objects' properties are read by hand: one at a time for Qt, which a GetAll ends. */
export function propertyReads(family: ToolkitFamily): PropertyReads {
  return family === 'qt' ? 'each' : 'all';
}

const known = new WeakMap<AtspiBus, Map<string, Promise<Toolkit>>>();

/**
 * The toolkit of the app at `busName`, read once per connection from its application object. An app that
 * does not say (no Application interface) reads as `other`, its states taken as AT-SPI defines them; a
 * read that timed out is asked again next time.
 */
export function toolkitFor(bus: AtspiBus, busName: string): Promise<Toolkit> {
  let apps = known.get(bus);
  if (!apps) {
    apps = new Map();
    known.set(bus, apps);
  }
  let toolkit = apps.get(busName);
  if (!toolkit) {
    const root = { busName, path: ROOT_PATH };
    toolkit = Promise.all([
      bus.property(root, APPLICATION_IFACE, 'ToolkitName').catch(whenGone('')),
      bus.property(root, APPLICATION_IFACE, 'Version').catch(whenGone('')),
    ]).then(([name, version]) => toolkitOf(String(name ?? ''), String(version ?? '')));
    // A timeout or a lost bus is not an answer: the next read asks again.
    toolkit.catch(() => apps?.delete(busName));
    apps.set(busName, toolkit);
  }
  return toolkit;
}

/** Maps raw state words of the app at `busName` to their canonical meaning (see canonicalStates). */
export async function stateReader(
  bus: AtspiBus,
  busName: string,
): Promise<(words: StateWords) => StateWords> {
  const { family } = await toolkitFor(bus, busName);
  return (words) => canonicalStates(words, family);
}
