import dbus from 'dbus-next';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { CHECKABLE_ROLES } from '../../contract/aria-roles.js';
import { TransportError } from '../../contract/transport-error.js';
import type { ElementAction } from '../../contract/window-driver.js';
import { type AccessibleRef, type AtspiBus, whenGone } from '../bus/atspi-bus.js';
import type { DesktopInput } from '../input/desktop-input.js';
import { isRangeRole } from '../tree/atspi-roles.js';
import { hasState, isDisabled, isShown, stateWords } from '../tree/atspi-states.js';
import { screenExtents } from '../tree/desktop-snapshot.js';
import { type Toolkit, toolkitFor } from '../tree/toolkit-states.js';
import type { TreeNode } from '../tree/tree-read.js';
import { sendConfirmed } from './confirmed-keys.js';

/**
 * What setChecked toggles through the element's action: the checkable roles whose action flips the check (an
 * option's or a tree item's selects it instead), and a GTK toggle button, which ARIA calls a pressed button.
 */
const TOGGLED_BY_ACTION: ReadonlySet<string> = new Set([
  ...[...CHECKABLE_ROLES].filter((role) => role !== 'treeitem' && role !== 'option'),
  'button',
]);
const MENU_ITEM_ROLES: ReadonlySet<string> = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);
/** AT-SPI's ATSPI_SCROLL_ANYWHERE: the least scrolling that shows the object, as scrollIntoViewIfNeeded. */
const SCROLL_ANYWHERE = 6;

/** What an action does that the transport cannot: the page engine's verbs a desktop has no counterpart for. */
export function unsupportedAction(type: string, input: DesktopInput): StagegraphError | null {
  const why: Record<string, string> = {
    ...(input.moveTo ? {} : { hover: 'AT-SPI has no hover, and this desktop input cannot move the pointer' }),
    dragTo: 'dragging between desktop elements is not offered yet',
    setInputFiles: 'a desktop window has no file input: open its file chooser and fill the path instead',
  };
  const reason = why[type];
  return reason
    ? new StagegraphError('CAPABILITY_UNSUPPORTED', `${type} on a desktop window: ${reason}.`)
    : null;
}

/**
 * Why the object cannot take the action now, in the page engine's codes (action-errors.ts), or null. The
 * caller waits for the window's next change and asks again until its timeout.
 */
export function actionability(node: TreeNode, action: ElementAction): StagegraphError | null {
  const what = `${action.type} on ${node.role} ${JSON.stringify(node.name)}`;
  if (action.type === 'focus') return null;
  if (!isShown(node.states, node.inClosedMenu))
    return new StagegraphError('ELEMENT_NOT_VISIBLE', `${what} failed: element not visible.`);
  if (action.type === 'scrollIntoView') return null;
  if (isDisabled(node.states))
    return new StagegraphError('ELEMENT_DISABLED', `${what} failed: element disabled.`);
  const editable =
    (node.interfaces.has('EditableText') && hasState(node.states, 'EDITABLE')) ||
    (isRangeRole(node.role) && node.interfaces.has('Value'));
  if ((action.type === 'fill' || action.type === 'clear') && !editable)
    return new StagegraphError('ELEMENT_NOT_EDITABLE', `${what} failed: element not editable.`);
  if (action.type === 'setChecked' && !(TOGGLED_BY_ACTION.has(node.role) && node.interfaces.has('Action')))
    return new StagegraphError('ELEMENT_NOT_EDITABLE', `${what} failed: not a checkbox, radio or toggle.`);
  if (action.type === 'selectOption' && !node.interfaces.has('Selection'))
    return new StagegraphError('ELEMENT_NOT_EDITABLE', `${what} failed: it holds no options to select.`);
  return null;
}

export interface ActionContext {
  readonly bus: AtspiBus;
  readonly input: DesktopInput;
  /** Resolves when the app's next signal arrives, or after `timeoutMs`. */
  nextChange(after: number, timeoutMs: number): Promise<number>;
  changes(): number;
}

function call(
  bus: AtspiBus,
  ref: AccessibleRef,
  iface: string,
  member: string,
  signature?: string,
  body?: unknown[],
) {
  return bus.call(ref.busName, ref.path, `org.a11y.atspi.${iface}`, member, signature, body);
}

async function expectTrue(reply: Promise<unknown[]>, what: string): Promise<void> {
  const [done] = await reply;
  if (done === false) throw new TransportError('protocol', `the app refused ${what}`);
}

/** Runs one action on an actionable object; `deadline` bounds what it waits for afterwards. */
export async function perform(
  context: ActionContext,
  node: TreeNode,
  action: ElementAction,
  deadline: number,
): Promise<void> {
  const { bus, input } = context;
  const { ref } = node;
  switch (action.type) {
    case 'click':
      return click(context, node, action);
    case 'fill':
    case 'clear':
      return fill(bus, node, action.type === 'fill' ? action.value : '');
    case 'type':
    case 'press': {
      await focusForKeys(context, node);
      const keys = {
        what: `${action.type} on ${node.role} ${JSON.stringify(node.name)}`,
        typed: action.type === 'type',
      };
      const send = () =>
        action.type === 'type' ? input.typeText(action.text, action.delayMs) : input.pressKey(action.key);
      return sendConfirmed(bus, context, node, keys, deadline, send);
    }
    case 'focus':
      return focus(bus, node);
    case 'setChecked':
      return setChecked(context, node, action.checked, deadline);
    case 'selectOption':
      return selectOption(bus, node, action);
    case 'scrollIntoView':
      // GTK 3 answers false (it cannot scroll to an object); a SHOWING object is already on screen.
      await call(bus, ref, 'Component', 'ScrollTo', 'u', [SCROLL_ANYWHERE]).catch(() => undefined);
      return;
    case 'hover': {
      const centre = await centreOf(context, node);
      if (!input.moveTo) throw unsupportedAction('hover', input);
      return input.moveTo(centre.x, centre.y);
    }
    case 'setInputFiles':
      throw unsupportedAction(action.type, input);
  }
}

async function centreOf(context: ActionContext, node: TreeNode): Promise<{ x: number; y: number }> {
  const extents = await screenExtents(context.bus, node);
  if (!extents) throw new StagegraphError('ELEMENT_NOT_VISIBLE', `${node.role}: it has no box on screen.`);
  return { x: Math.round(extents.x + extents.width / 2), y: Math.round(extents.y + extents.height / 2) };
}

/**
 * Keys go to the focused object of the window that has the X keyboard focus. Without a window manager
 * that focus follows the pointer, so the pointer is moved over the object first when the input can.
 */
async function focusForKeys(context: ActionContext, node: TreeNode): Promise<void> {
  const grabbed = await focus(context.bus, node).then(
    () => true,
    (error: unknown) => {
      if ((error as StagegraphError).code !== 'DESKTOP_ACTION_UNSUPPORTED') throw error;
      return false;
    },
  );
  const centre = await centreOf(context, node).catch(() => null);
  if (!centre) return;
  // Where the toolkit cannot grab the focus (GTK 4.8), a click puts it in a text field, as a person's would.
  if (!grabbed && node.interfaces.has('EditableText'))
    return context.input.clickAt(centre.x, centre.y, 'left', 1);
  if (context.input.moveTo) await context.input.moveTo(centre.x, centre.y);
}

/**
 * A plain click is the object's default action (DoAction 0), which needs no pointer and no window in
 * front. A positioned click, another button or several clicks go through the X pointer at the object's
 * extents; modifier clicks are refused, as the pointer path cannot hold keys down yet.
 */
async function click(
  context: ActionContext,
  node: TreeNode,
  action: Extract<ElementAction, { type: 'click' }>,
) {
  if (action.modifiers && action.modifiers.length > 0) {
    throw new StagegraphError('BAD_INPUT', 'A click with modifiers is not offered on desktop windows yet.');
  }
  const plain = !action.position && (action.button ?? 'left') === 'left' && (action.clickCount ?? 1) === 1;
  if (plain && node.interfaces.has('Action') && !(await qtClicksByPointer(context.bus, node))) {
    const { busName, path } = node.ref;
    const answer = await context.bus.callOrLeaveRunning(
      busName,
      path,
      'org.a11y.atspi.Action',
      'DoAction',
      'i',
      [0],
    );
    // Still running: the handler opened a modal loop (a dialog); the click reached the app.
    if (answer === 'running') return;
    return expectTrue(Promise.resolve(answer), 'the default action');
  }
  const extents = await screenExtents(context.bus, node);
  if (!extents)
    throw new StagegraphError('ELEMENT_NOT_VISIBLE', `click on ${node.role}: it has no box on screen.`);
  const x = extents.x + (action.position ? action.position.x : extents.width / 2);
  const y = extents.y + (action.position ? action.position.y : extents.height / 2);
  await context.input.clickAt(Math.round(x), Math.round(y), action.button ?? 'left', action.clickCount ?? 1);
}

/**
 * Where a Qt action is not what a person's click does, the click goes through the pointer: an item of a menu
 * on screen (its Press triggers the item but leaves the menu open, its exec() still running), and a tool
 * button whose menu pops up on press (InstantPopup): its one action, ShowMenu, does nothing
 * (QAccessibleToolButton::doAction opens the menu only for the other popup modes).
 */
async function qtClicksByPointer(bus: AtspiBus, node: TreeNode): Promise<boolean> {
  if ((await toolkitFor(bus, node.ref.busName).catch(() => null))?.family !== 'qt') return false;
  if (MENU_ITEM_ROLES.has(node.role)) return hasState(node.states, 'SHOWING') && node.parent?.role === 'menu';
  if (node.role !== 'button') return false;
  const [actions] = await call(bus, node.ref, 'Action', 'GetActions').catch(whenGone([[]]));
  const names = (actions as [string, string, string][]).map(([name]) => name);
  return names.length === 1 && names[0] === 'ShowMenu';
}

/**
 * Component.GrabFocus. GTK 4.8 does not implement it and answers an error with no reason at all: that
 * becomes DESKTOP_ACTION_UNSUPPORTED naming the toolkit, not an empty PROTOCOL_ERROR. Qt answers true
 * whether or not the widget took the focus, which it does only in its active window (a desktop without a
 * window manager activates a Qt window once it is clicked into), so on Qt the focus is read back.
 */
async function focus(bus: AtspiBus, node: TreeNode): Promise<void> {
  const what = `focus on ${node.role} ${JSON.stringify(node.name)}`;
  const toolkit = () => toolkitFor(bus, node.ref.busName).catch(() => null);
  try {
    await expectTrue(call(bus, node.ref, 'Component', 'GrabFocus'), 'focus');
  } catch (error) {
    const reason = (error as { cause?: { text?: unknown } }).cause?.text;
    if (!(error instanceof TransportError) || error.kind !== 'protocol' || reason !== '') throw error;
    throw new StagegraphError(
      'DESKTOP_ACTION_UNSUPPORTED',
      `${what}: ${named(await toolkit())} answered Component.GrabFocus with an error and no reason; this toolkit does not implement it.`,
      { cause: error },
    );
  }
  const qt = await toolkit();
  if (qt?.family !== 'qt') return;
  const [words] = await call(bus, node.ref, 'Accessible', 'GetState');
  if (hasState(stateWords(words as number[]), 'FOCUSED')) return;
  throw new StagegraphError(
    'DESKTOP_ACTION_UNSUPPORTED',
    `${what}: ${named(qt)} answered Component.GrabFocus but did not focus it: Qt focuses a widget only in its active window, and this one is not active (without a window manager a Qt window becomes active once it is clicked into).`,
  );
}

function named(toolkit: Toolkit | null): string {
  return toolkit?.name ? `${toolkit.name} ${toolkit.version}`.trim() : 'the app';
}

/** A range takes a number through Value; text goes in whole through EditableText. */
async function fill(bus: AtspiBus, node: TreeNode, value: string): Promise<void> {
  const { ref } = node;
  if (isRangeRole(node.role) && node.interfaces.has('Value')) {
    const number = Number(value);
    if (value.trim() === '' || Number.isNaN(number)) {
      throw new StagegraphError(
        'BAD_INPUT',
        `A ${node.role} takes a number; ${JSON.stringify(value)} is not one.`,
      );
    }
    await bus.call(ref.busName, ref.path, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', [
      'org.a11y.atspi.Value',
      'CurrentValue',
      new dbus.Variant('d', number),
    ]);
    return;
  }
  const [set] = await call(bus, ref, 'EditableText', 'SetTextContents', 's', [value]);
  if (set !== false) return;
  // Some toolkits implement only the editing primitives: delete everything, then insert.
  const [count] = await call(bus, ref, 'Text', 'GetCharacterCount').catch(() => [-1]);
  await call(bus, ref, 'EditableText', 'DeleteText', 'ii', [0, Number(count)]);
  await expectTrue(call(bus, ref, 'EditableText', 'InsertText', 'isi', [0, value, value.length]), 'the text');
}

async function checkedNow(bus: AtspiBus, ref: AccessibleRef): Promise<boolean> {
  const [words] = await call(bus, ref, 'Accessible', 'GetState');
  return hasState(stateWords(words as number[]), 'CHECKED');
}

/**
 * Acts only when the state differs, then waits (on the app's signals) until it reads as asked: a toggle
 * that did not turn is ACTION_UNCONFIRMED, since the click did reach the app.
 */
async function setChecked(context: ActionContext, node: TreeNode, checked: boolean, deadline: number) {
  const { bus } = context;
  const { ref } = node;
  if ((await checkedNow(bus, ref)) === checked) return;
  let seen = context.changes();
  await expectTrue(call(bus, ref, 'Action', 'DoAction', 'i', [0]), 'the toggle');
  for (;;) {
    if ((await checkedNow(bus, ref)) === checked) return;
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    seen = await context.nextChange(seen, remaining);
  }
  throw new StagegraphError(
    'ACTION_UNCONFIRMED',
    `setChecked reached the ${node.role} but it did not read ${checked ? 'checked' : 'unchecked'} in time; it may have taken effect.`,
    { details: { phase: 'waiting for the checked state' } },
  );
}

/**
 * A combo box's options are the items of its popup menu (not shown, so not in the tree), a list box's its
 * children; the chosen one is selected through the Selection interface by its index.
 */
async function selectOption(
  bus: AtspiBus,
  node: TreeNode,
  action: Extract<ElementAction, { type: 'selectOption' }>,
): Promise<void> {
  const options = await optionNames(bus, node);
  const wanted = [...(action.labels ?? []), ...(action.values ?? [])];
  const indexes = [
    ...(action.indexes ?? []),
    ...wanted.map((label) => options.findIndex((name) => name.trim() === label.trim())),
  ];
  if (indexes.length === 0 || indexes.some((index) => index < 0 || index >= options.length)) {
    throw new StagegraphError(
      'BAD_INPUT',
      `No option of the ${node.role} matches ${JSON.stringify(action)}; its options are ${JSON.stringify(options)}.`,
    );
  }
  if (indexes.length > 1 && !hasState(node.states, 'MULTISELECTABLE')) {
    throw new StagegraphError(
      'BAD_INPUT',
      `The ${node.role} takes one option; ${indexes.length} were given.`,
    );
  }
  for (const index of indexes) {
    await expectTrue(call(bus, node.ref, 'Selection', 'SelectChild', 'i', [index]), `option ${index}`);
  }
}

async function childrenOf(bus: AtspiBus, ref: AccessibleRef): Promise<AccessibleRef[]> {
  const [list] = await call(bus, ref, 'Accessible', 'GetChildren');
  return (list as [string, string][]).map(([busName, path]) => ({ busName, path }));
}

/** A list's rows are named by their content, so the tree's names are used for the children it read. */
async function optionNames(bus: AtspiBus, node: TreeNode): Promise<string[]> {
  let holder = node.ref;
  if (node.role === 'combobox') {
    const [menu] = await childrenOf(bus, node.ref);
    if (menu) holder = menu;
  }
  const read = new Map(node.children.map((child) => [child.ref.path, child.name]));
  const options = await childrenOf(bus, holder);
  return Promise.all(
    options.map(
      async (option) =>
        read.get(option.path) ?? String(await bus.property(option, 'org.a11y.atspi.Accessible', 'Name')),
    ),
  );
}
