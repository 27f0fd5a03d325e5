import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { delay } from '../../process/process-group.js';
import { ACCESSIBLE_IFACE, type AccessibleRef, type AtspiBus, whenGone } from '../bus/atspi-bus.js';
import type { DesktopInput } from '../input/desktop-input.js';
import { hasState, stateWords } from '../tree/atspi-states.js';
import type { MenuNode } from './menu-bar.js';

/** AT-SPI's ATSPI_COORD_TYPE_SCREEN. */
const SCREEN_COORDS = 0;
/**
 * How often a menu that is opening is looked at again. GTK announces a popup menu's SHOWING on the menu, not
 * on each item, and its extents only once mapped: a short look again is what tells the item can be clicked.
 */
const SHOWN_POLL_MS = 50;
/**
 * How long an item may stay hidden before the menu holding it is looked at: a click a loaded X server or a
 * busy app dropped opens nothing, and waiting out the whole deadline for it would fail the invocation.
 */
const LOOK_AGAIN_AFTER_MS = 2_000;

interface ScreenPoint {
  readonly x: number;
  readonly y: number;
}

/** The item's box on screen once it is SHOWING with a size; null when not by the deadline. */
async function shownBox(bus: AtspiBus, ref: AccessibleRef, deadline: number): Promise<ScreenPoint | null> {
  for (;;) {
    const [words] = await bus
      .call(ref.busName, ref.path, 'org.a11y.atspi.Accessible', 'GetState')
      .catch(whenGone([[0, 0]]));
    if (hasState(stateWords(words as number[]), 'SHOWING')) {
      const [extents] = await bus
        .call(ref.busName, ref.path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [SCREEN_COORDS])
        .catch(whenGone([null]));
      const [x = 0, y = 0, width = 0, height = 0] = Array.isArray(extents) ? (extents as number[]) : [];
      if (width > 0 && height > 0) return { x: Math.round(x + width / 2), y: Math.round(y + height / 2) };
    }
    if (Date.now() + SHOWN_POLL_MS > deadline) return null;
    await delay(SHOWN_POLL_MS);
  }
}

/**
 * Activates a menu-bar item as a person does: a click on each menu of its path, then on the item. GTK3's
 * atk-bridge runs an item's action inside its D-Bus dispatch (after answering), so a handler that runs a
 * modal dialog's nested main loop there (gtk_dialog_run, as editors open their file choosers) leaves the
 * bridge unable to answer anything until the dialog closes — every read times out and the dialog cannot be
 * read or answered. A click is dispatched from the X event source instead, and the bridge keeps answering.
 * False when the path's first menu is not on screen (a hidden window): the caller falls back on the action.
 */
export async function clickThroughMenus(
  bus: AtspiBus,
  input: Pick<DesktopInput, 'clickAt'>,
  chain: readonly MenuNode[],
  deadline: number,
): Promise<boolean> {
  let holder: ScreenPoint | null = null;
  for (const [index, node] of chain.entries()) {
    const box: ScreenPoint | null =
      index === 0 ? await shownBox(bus, node.ref, Date.now()) : await opened(node, holder, deadline);
    if (!box) {
      if (index === 0) return false;
      throw new StagegraphError(
        'ELEMENT_NOT_VISIBLE',
        `invokeMenuItem: the menu holding ${JSON.stringify(node.item.label)} did not open in time.`,
      );
    }
    await input.clickAt(box.x, box.y, 'left', 1);
    holder = box;
  }
  return true;

  /**
   * The item's box once its menu opened. While the menu holding it is not on screen, the click on its holder
   * was lost (not merely slow: a menu that opens is SHOWING before its items have boxes) and is made again.
   */
  async function opened(
    node: MenuNode,
    holderBox: ScreenPoint | null,
    until: number,
  ): Promise<ScreenPoint | null> {
    for (;;) {
      const box = await shownBox(bus, node.ref, Math.min(until, Date.now() + LOOK_AGAIN_AFTER_MS));
      if (box || Date.now() >= until) return box;
      if (holderBox && !(await menuShowing(bus, node.ref)))
        await input.clickAt(holderBox.x, holderBox.y, 'left', 1);
    }
  }
}

/** Whether the menu holding an item (its accessible parent) is on screen. */
async function menuShowing(bus: AtspiBus, item: AccessibleRef): Promise<boolean> {
  const parent = (await bus.property(item, ACCESSIBLE_IFACE, 'Parent').catch(whenGone(null))) as
    | [string, string]
    | null;
  if (!parent) return false;
  const [words] = await bus
    .call(parent[0], parent[1], ACCESSIBLE_IFACE, 'GetState')
    .catch(whenGone([[0, 0]]));
  return hasState(stateWords(words as number[]), 'SHOWING');
}
