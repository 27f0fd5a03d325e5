import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { describeAccessible } from '../bus/accessible-description.js';
import {
  ACCESSIBLE_IFACE,
  type AccessibleRef,
  type AtspiBus,
  type CacheItem,
  whenGone,
} from '../bus/atspi-bus.js';
import { menuLabel } from '../menus/menu-label.js';
import { ariaRole, atspiRoleName, namedByLabel, namedFromContent } from './atspi-roles.js';
import { hasState, type StateWords, stateWords } from './atspi-states.js';
import type { KeyTable } from './key-table.js';
import { canonicalStates, propertyReads, type ToolkitFamily, toolkitFor } from './toolkit-states.js';

/** One object of a window as one read found it, in the page engine's vocabulary where it has one. */
export interface TreeNode {
  readonly ref: AccessibleRef;
  readonly key: number;
  readonly atspiRole: string;
  readonly roleNumber: number;
  /** ARIA role (atspi-roles.ts). */
  readonly role: string;
  /** The name the toolkit gives it; `name` may come from a label or from the content instead. */
  readonly ownName: string;
  readonly name: string;
  readonly description: string;
  readonly states: StateWords;
  /** Interface names without the org.a11y.atspi. prefix: Action, Text, EditableText, Value, Selection … */
  readonly interfaces: ReadonlySet<string>;
  readonly parent: TreeNode | null;
  readonly children: readonly TreeNode[];
  /** Inside a menu that is closed: VISIBLE, not SHOWING, and still activatable. */
  readonly inClosedMenu: boolean;
  /** An ancestor's name was read from this node's content (a list row's label): text targets skip it. */
  readonly covered: boolean;
}

/** One read of a window: its nodes in pre-order, the first being the window. */
export interface WindowTree {
  readonly root: TreeNode;
  readonly nodes: readonly TreeNode[];
  readonly byKey: ReadonlyMap<number, TreeNode>;
}

/** What the tree needs of one object, whether the app's Cache listed it or it was read by hand. */
interface ObjectRecord {
  readonly role: number;
  readonly name: string;
  readonly description: string;
  readonly states: StateWords;
  readonly interfaces: readonly string[];
  /** -1 when unknown: the toolkit does not count them (a menu, a list that manages its descendants). */
  readonly childCount: number;
}

interface Draft {
  readonly ref: AccessibleRef;
  readonly record: ObjectRecord;
  children: Draft[];
}

const LABELLED_BY = 2;
/** Roles whose names are menu labels (menu-label.ts): shown and matched without padding or mnemonics. */
const MENU_ROLES = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'menu']);
const ATSPI_PREFIX = 'org.a11y.atspi.';

/**
 * Reads one window's subtree in bulk. The app's Cache.GetItems answers most objects in one call; GTK leaves
 * out what lies below a menu or a list that manages its descendants (a ListBox's rows), so those are read
 * by hand — GetChildren where the Cache's children fall short, then each missing object's properties, role,
 * states and interfaces — one level at a time, every call of a level in flight at once. What was read by
 * hand is kept until a signal names the object (its name, states or children changed), or, for a listing
 * of children, until it names an object the app no longer has; so a second read of an unchanged window
 * costs the one Cache call. Objects that are not VISIBLE are left out with their subtrees, as the DOM
 * walker leaves out display:none.
 */
export class TreeReader {
  readonly #bus: AtspiBus;
  readonly #keys: KeyTable;
  readonly #records = new Map<string, ObjectRecord>();
  readonly #children = new Map<string, AccessibleRef[]>();
  readonly #labels = new Map<string, string | null>();
  readonly #ids = new Map<string, string>();
  /** The app's toolkit (toolkit-states.ts): how its states and menu labels are read. */
  #family: ToolkitFamily = 'other';

  constructor(bus: AtspiBus, keys: KeyTable) {
    this.#bus = bus;
    this.#keys = keys;
  }

  /**
   * Forgets what was read by hand about the object a signal names (`member` is the signal's: StateChanged,
   * ChildrenChanged …). A selection change is announced on the container alone — GTK sends no state change
   * for the rows that gained or lost SELECTED — so it voids what was read of the container's children too.
   */
  invalidate(path: string, member: string): void {
    this.#records.delete(path);
    this.#labels.delete(path);
    if (member === 'ChildrenChanged') this.#children.delete(path);
    if (member === 'SelectionChanged' || member === 'ActiveDescendantChanged') {
      for (const child of this.#children.get(path) ?? []) this.#records.delete(child.path);
    }
  }

  /**
   * `popups` are read as the window's last children: menus the app shows over it that no window lists
   * (a Qt context menu, bus/qt-popups.ts), so its snapshot and targets reach their items as a person sees them.
   */
  async read(window: AccessibleRef, popups: readonly AccessibleRef[] = []): Promise<WindowTree> {
    const cache = new Map<string, CacheItem>();
    const cachedChildren = new Map<string, CacheItem[]>();
    this.#family = (await toolkitFor(this.#bus, window.busName)).family;
    for (const raw of await this.#bus.cacheItems(window.busName)) {
      const item = { ...raw, states: canonicalStates(raw.states, this.#family) };
      cache.set(item.ref.path, item);
      const siblings = cachedChildren.get(item.parent.path);
      if (siblings) siblings.push(item);
      else cachedChildren.set(item.parent.path, [item]);
    }
    const recordOf = (ref: AccessibleRef) => cache.get(ref.path) ?? this.#records.get(ref.path);
    await this.#readByHand([window], recordOf);
    const rootRecord = recordOf(window);
    if (!rootRecord || hasState(rootRecord.states, 'DEFUNCT')) {
      throw new StagegraphError('WINDOW_NOT_FOUND', 'The window has closed.');
    }
    const root: Draft = { ref: window, record: rootRecord, children: [] };
    let level = [root];
    while (level.length > 0) {
      const shown = level.filter(
        ({ record }) => hasState(record.states, 'VISIBLE') && record.childCount !== 0,
      );
      const listed = shown.map((draft) => {
        const cached = (cachedChildren.get(draft.ref.path) ?? []).filter((item) => item.indexInParent >= 0);
        const complete = cache.has(draft.ref.path) && cached.length === draft.record.childCount;
        return complete
          ? cached.sort((a, b) => a.indexInParent - b.indexInParent).map((item) => item.ref)
          : null;
      });
      await Promise.all(
        shown.map((draft, index) => (listed[index] ? undefined : this.#readChildren(draft.ref))),
      );
      const childRefsOf = () =>
        shown.map((draft, index) => [
          ...(listed[index] ?? this.#children.get(draft.ref.path) ?? []),
          ...(draft === root ? popups : []),
        ]);
      let childRefs = childRefsOf();
      await this.#readByHand(childRefs.flat(), recordOf);
      // A listing kept from an earlier read that names an object the app no longer has is stale: Chromium
      // swaps a page's document on navigation without announcing it on the document's parent. Such a listing
      // is read afresh, once per read.
      const stale = shown.filter(
        (_draft, index) => !listed[index] && (childRefs[index] ?? []).some((ref) => !recordOf(ref)),
      );
      if (stale.length > 0) {
        for (const draft of stale) this.#children.delete(draft.ref.path);
        await Promise.all(stale.map((draft) => this.#readChildren(draft.ref)));
        childRefs = childRefsOf();
        await this.#readByHand(childRefs.flat(), recordOf);
      }
      const next: Draft[] = [];
      shown.forEach((draft, index) => {
        for (const ref of childRefs[index] ?? []) {
          const record = recordOf(ref);
          if (!record) continue;
          const child: Draft = { ref, record, children: [] };
          draft.children.push(child);
          next.push(child);
        }
      });
      level = next;
    }
    await this.#readLabels(root);
    return this.#build(root);
  }

  /** The accessible ids (AccessibleId) of these nodes, read once per object. */
  async accessibleIds(nodes: readonly TreeNode[]): Promise<string[]> {
    await Promise.all(
      nodes
        .filter(({ ref }) => !this.#ids.has(ref.path))
        .map(async ({ ref }) => {
          const id = await this.#bus.property(ref, ACCESSIBLE_IFACE, 'AccessibleId').catch(whenGone(''));
          this.#ids.set(ref.path, typeof id === 'string' ? id : '');
        }),
    );
    return nodes.map(({ ref }) => this.#ids.get(ref.path) ?? '');
  }

  async #readChildren(ref: AccessibleRef): Promise<void> {
    if (this.#children.has(ref.path)) return;
    const children = await this.#bus
      .call(ref.busName, ref.path, ACCESSIBLE_IFACE, 'GetChildren')
      .then(([list]) => (list as [string, string][]).map(([busName, path]) => ({ busName, path })))
      .catch(whenGone([]));
    this.#children.set(ref.path, children);
  }

  /** Reads every object neither the Cache nor an earlier read knows; a gone object is left out. */
  async #readByHand(
    refs: readonly AccessibleRef[],
    recordOf: (ref: AccessibleRef) => ObjectRecord | undefined,
  ): Promise<void> {
    await Promise.all(
      refs
        .filter((ref) => !recordOf(ref))
        .map(async (ref) => {
          try {
            const described = await describeAccessible(this.#bus, ref, propertyReads(this.#family));
            if (described.accessibleId !== undefined) this.#ids.set(ref.path, described.accessibleId);
            this.#records.set(ref.path, {
              role: described.role,
              name: described.name,
              description: described.description,
              states: canonicalStates(stateWords(described.states), this.#family),
              interfaces: described.interfaces,
              childCount: described.childCount,
            });
          } catch (error) {
            // The object left the app between its parent's listing and this read: left out. Anything
            // else (a timeout, a lost bus) fails the read rather than answer a tree with holes in it.
            whenGone(undefined)(error);
          }
        }),
    );
  }

  /** GTK names an entry, a combo or a spin button only through its label's LABELLED_BY relation. */
  async #readLabels(root: Draft): Promise<void> {
    const labelled: Draft[] = [];
    const visit = (draft: Draft) => {
      if (namedByLabel(ariaRole(draft.record.role)) && !this.#labels.has(draft.ref.path))
        labelled.push(draft);
      for (const child of draft.children) visit(child);
    };
    visit(root);
    await Promise.all(
      labelled.map(async ({ ref }) => {
        const [relations] = await this.#bus
          .call(ref.busName, ref.path, ACCESSIBLE_IFACE, 'GetRelationSet')
          .catch(whenGone([[]]));
        const label = (relations as [number, [string, string][]][]).find(([type]) => type === LABELLED_BY);
        this.#labels.set(ref.path, label?.[1][0]?.[1] ?? null);
      }),
    );
  }

  #build(root: Draft): WindowTree {
    const nodes: TreeNode[] = [];
    const byKey = new Map<number, TreeNode>();
    const drafts = new Map<string, Draft>();
    const index = (draft: Draft) => {
      drafts.set(draft.ref.path, draft);
      for (const child of draft.children) index(child);
    };
    index(root);
    const labelName = (path: string) => {
      const labelPath = this.#labels.get(path);
      return labelPath ? (drafts.get(labelPath)?.record.name ?? '') : '';
    };
    // As menu-bar.ts reads them: GTK3 and Qt strip mnemonics themselves.
    const stripMnemonics = this.#family === 'gtk4' || this.#family === 'other';
    const visit = (draft: Draft, parent: TreeNode | null, inMenu: boolean, covered: boolean) => {
      const { record } = draft;
      const role = wrapsNamesake(draft, this.#family) ? 'generic' : ariaRole(record.role);
      const menuLike = role === 'menu' || role === 'menubar';
      const closedMenu = inMenu || (menuLike && !hasState(record.states, 'EXPANDED') && parent !== null);
      let name = (namedByLabel(role) && labelName(draft.ref.path)) || record.name;
      if (MENU_ROLES.has(role)) name = menuLabel(name, stripMnemonics).label;
      const fromContent = name === '' && namedFromContent(role);
      if (fromContent) name = contentText(draft);
      const node: TreeNode = {
        ref: draft.ref,
        key: this.#keys.keyOf(draft.ref),
        atspiRole: atspiRoleName(record.role),
        roleNumber: record.role,
        role,
        ownName: record.name,
        name,
        description: record.description,
        states: record.states,
        interfaces: new Set(record.interfaces.map((name) => name.replace(ATSPI_PREFIX, ''))),
        parent,
        children: [],
        inClosedMenu: closedMenu && !hasState(record.states, 'SHOWING') && parent !== null,
        covered,
      };
      nodes.push(node);
      byKey.set(node.key, node);
      const children = node.children as TreeNode[];
      for (const child of draft.children) {
        children.push(visit(child, node, closedMenu, covered || fromContent));
      }
      return node;
    };
    return { root: visit(root, null, false, false), nodes, byKey };
  }
}

/**
 * GTK4's MenuButton is a button holding the toggle button that does the work, both of one name; the outer
 * one has no action. Read as a container, so `role: button, name: …` finds the one a click opens.
 */
function wrapsNamesake(draft: Draft, family: ToolkitFamily): boolean {
  if (family !== 'gtk4' || ariaRole(draft.record.role) !== 'button') return false;
  return draft.children.some(
    (child) => ariaRole(child.record.role) === 'button' && child.record.name === draft.record.name,
  );
}

/** Accname's name from content, over the toolkit's names: a list row's label names the row. */
function contentText(draft: Draft): string {
  const parts: string[] = [];
  const visit = (child: Draft) => {
    if (child.record.name) parts.push(child.record.name);
    else for (const grandchild of child.children) visit(grandchild);
  };
  for (const child of draft.children) visit(child);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
