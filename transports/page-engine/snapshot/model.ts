/// <reference lib="dom" />
import type { ControlStates } from './control-states.js';
import type { Registry } from './key-registry.js';
import type { States } from './states.js';
import type { StyleRuleFlags, StyleRules } from './style-rules.js';
import type { Walker, WalkRequest } from './walker.js';

/** What the Node side knows of the page's last read: the model answers relative to it, or walks afresh. */
export interface ModelBase {
  readonly documentId: string;
  readonly version: number;
}

/**
 * One read through the model: `same` (nothing the snapshot shows changed since `version`), `delta` (the
 * subtrees and ancestors to splice into the read of version `base`), or `full` (a whole walk, `json` as
 * the walker's snapshot encodes it; the model restarts from it).
 */
export type ModelRead =
  | { readonly kind: 'same'; readonly version: number; readonly url: string; readonly title: string }
  | {
      readonly kind: 'delta';
      readonly base: number;
      readonly version: number;
      readonly url: string;
      readonly title: string;
      readonly detached: number[];
      /** Each re-walked subtree: the key of its root, and its tuples in pre-order (the root first). */
      readonly regions: { readonly key: number; readonly nodes: unknown[] }[];
      /** Emitted ancestors of those subtrees, each re-described (one tuple each, same key as before). */
      readonly described: unknown[][];
    }
  | { readonly kind: 'full'; readonly version: number; readonly json: string };

/**
 * In-page: a model of the document's snapshot kept current from mutation records, so that a repeated read
 * costs what changed rather than the page. After a full walk of the whole document (no `within`, `depth`,
 * `interactiveOnly` or boxes), it records which elements the walk emitted; each later read turns the
 * mutations since into the fewest subtrees to walk again (the nearest emitted ancestor of each change) and
 * the ancestors to describe again (a row's name reads its cells). Whatever it cannot place — style sheets,
 * id references and labels, shadow roots and frames, navigation, a resize, many scattered changes — makes
 * it unsure, and the read is a full walk that restarts it.
 * A self-contained factory: its source is shipped into the page whole, dependencies arrive as arguments.
 */
export function createModel(
  walker: Walker,
  registry: Registry,
  states: States,
  styleRules: StyleRules,
  controlStates: ControlStates,
) {
  /** Past this many separate subtrees, one walk of the page is cheaper than many small ones. */
  const MAX_REGIONS = 50;
  /** Past this many removed subtrees between two reads, checking every key is as cheap as visiting them. */
  const MAX_REMOVED_ROOTS = 5_000;
  /** A change of these attributes reaches beyond the element's subtree (references, groups, slots). */
  const FAR_ATTRIBUTES = new Set([
    'id',
    'for',
    'name',
    'slot',
    'aria-labelledby',
    'aria-describedby',
    'aria-owns',
    'aria-activedescendant',
  ]);
  /** Elements whose arrival or departure changes what the walker sees elsewhere, or hides it. */
  const FAR_SELECTOR =
    'label,style,link,iframe,frame,object,embed,slot,base,[aria-labelledby],[aria-describedby],[aria-owns],[for]';
  const REFERENCE_SELECTOR = '[aria-labelledby],[aria-describedby],[aria-owns],[aria-activedescendant],[for]';

  /** The change reaches the element's own tuple and its later siblings (attributes, state, focus). */
  const SELF = 0;
  /** The change is in the element's children or text. */
  const CONTENT = 1;

  let active = false;
  let unsure = false;
  let version = 0;
  let observer: MutationObserver | null = null;
  /** Elements the last read emitted, with their roles. */
  let emitted = new WeakMap<Node, string>();
  let dirty = new Map<Node, number>();
  /**
   * Nodes the records say were removed since the last read, whose subtrees hold the keys to report
   * detached; null once more than MAX_REMOVED_ROOTS were, when every key is checked instead.
   */
  let removed: Node[] | null = [];
  let titleChanged = false;
  let focused: Element | null = null;
  let url = '';
  let title = '';
  let referencedIds = new Set<string>();
  /** Style rules that let a change restyle an ancestor (`:has`, `:focus-within`) or the element itself (`:empty`). */
  let rules: StyleRuleFlags = { has: false, empty: false, focusWithin: false };

  function markUnsure(): void {
    unsure = true;
    dirty.clear();
  }

  function mark(node: Node | null, how: number): void {
    if (!node || unsure) return;
    const known = dirty.get(node);
    // SELF reaches the parent's region, which covers CONTENT of the node too.
    if (known === undefined || how === SELF) dirty.set(node, how);
  }

  function inHead(node: Node): boolean {
    const body = document.body;
    return !body?.contains(node);
  }

  /** An added or removed subtree that brings along what the model cannot place. */
  function farReaching(node: Node): boolean {
    if (node.nodeType !== 1) return false;
    const element = node as Element;
    if (element.matches(FAR_SELECTOR) || element.shadowRoot) return true;
    if (element.querySelector(FAR_SELECTOR)) return true;
    if (element.id && referencedIds.has(element.id)) return true;
    if (referencedIds.size > 0)
      for (const withId of element.querySelectorAll('[id]')) if (referencedIds.has(withId.id)) return true;
    if (element.firstElementChild)
      for (const inner of element.querySelectorAll('*')) if (inner.shadowRoot) return true;
    return false;
  }

  function onRecords(records: MutationRecord[]): void {
    if (!active || unsure) return;
    for (const record of records) {
      const target = record.target;
      if (inHead(target)) {
        const element = target.nodeType === 1 ? (target as Element) : target.parentElement;
        if (element?.closest('title')) titleChanged = true;
        else {
          markUnsure();
          return;
        }
        continue;
      }
      if (record.type === 'attributes') {
        const element = target as Element;
        if (
          FAR_ATTRIBUTES.has(record.attributeName ?? '') ||
          element.tagName === 'STYLE' ||
          element.tagName === 'LINK'
        ) {
          markUnsure();
          return;
        }
        mark(element, SELF);
      } else if (record.type === 'characterData') {
        mark(target.parentNode, CONTENT);
      } else {
        for (const nodes of [record.addedNodes, record.removedNodes])
          for (const node of nodes)
            if (farReaching(node)) {
              markUnsure();
              return;
            }
        for (const node of record.removedNodes) {
          if (removed === null) break;
          removed.push(node);
          if (removed.length > MAX_REMOVED_ROOTS) removed = null;
        }
        mark(target, CONTENT);
      }
    }
  }

  /** A change the mutation records do not carry: the element's box may show or hide (popover, transition). */
  function onEvent(event: Event): void {
    if (!active || unsure) return;
    if (event.type === 'resize') {
      markUnsure();
      return;
    }
    const target = event.target;
    if (target instanceof Element && target.ownerDocument === document && !inHead(target)) mark(target, SELF);
  }

  /** A document the model cannot follow by its mutation records: frames, open shadow roots, `:has()`. */
  function unfollowable(): boolean {
    if (rules.has) return true;
    if (
      document.getElementsByTagName('iframe').length > 0 ||
      document.getElementsByTagName('frame').length > 0
    )
      return true;
    for (const element of document.querySelectorAll('*')) if (element.shadowRoot) return true;
    return false;
  }

  function start(): void {
    if (observer) return;
    observer = new MutationObserver(onRecords);
    for (const type of ['toggle', 'transitionend', 'animationend'])
      document.addEventListener(type, onEvent, true);
    window.addEventListener('resize', onEvent, true);
  }

  /** Restarts the model from a full walk's tuples (taken in the same task: no change can fall between). */
  function begin(nodes: readonly unknown[]): void {
    start();
    observer?.disconnect();
    version += 1;
    dirty = new Map();
    removed = [];
    titleChanged = false;
    unsure = false;
    rules = styleRules.scan();
    active = !unfollowable();
    if (!active) return;
    observer?.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    emitted = new WeakMap();
    for (const tuple of nodes) {
      const [key, , role] = tuple as [number, number, string];
      if (role === 'text') continue;
      const node = registry.nodeFor(key);
      if (node) emitted.set(node, role);
    }
    referencedIds = new Set();
    for (const element of document.querySelectorAll(REFERENCE_SELECTOR))
      for (const attribute of [
        'aria-labelledby',
        'aria-describedby',
        'aria-owns',
        'aria-activedescendant',
        'for',
      ]) {
        const ids = element.getAttribute(attribute);
        if (ids) for (const id of ids.trim().split(/\s+/)) referencedIds.add(id);
      }
    controlStates.reset();
    focused = states.deepActiveElement();
    url = location.href;
    title = document.title;
  }

  /** A region to walk again: its root, the key it hangs from, and its emitted ancestors bottom-up. */
  interface Region {
    root: Element;
    parent: number;
    ancestors: [Node, number][];
  }

  /**
   * The region a change at `node` dirties: the subtree of its nearest emitted ancestor (itself for a
   * content change), widened to the highest ancestor whose name covers its content (whether it still does
   * decides what below it is emitted). Null when the change cannot be placed.
   */
  function regionOf(node: Node, how: number): Region | null {
    if (!node.isConnected || inHead(node)) return null;
    let at: Node | null = how === SELF || rules.empty ? node.parentNode : node;
    const chain: Node[] = [];
    for (; at; at = at.parentNode) {
      if (at.nodeType === 9) {
        chain.push(at);
        break;
      }
      if (at.nodeType !== 1) return null;
      const element = at as Element;
      if (element.tagName === 'LABEL' || (element.id && referencedIds.has(element.id))) return null;
      if (emitted.has(element)) chain.push(element);
    }
    if (chain.length < 2) return null;
    let rootIndex = 0;
    for (let i = 1; i < chain.length - 1; i += 1)
      if (COVERING.has(emitted.get(chain[i] as Node) ?? '')) rootIndex = i;
    const keys = chain.map((ancestor) => registry.keyOf(ancestor));
    const ancestors: [Node, number][] = [];
    for (let i = rootIndex + 1; i < chain.length; i += 1)
      ancestors.push([chain[i] as Node, i + 1 < chain.length ? (keys[i + 1] as number) : 0]);
    return { root: chain[rootIndex] as Element, parent: keys[rootIndex + 1] as number, ancestors };
  }

  /** Roles whose name read from content hides their plain text (the walker's roles.coversText). */
  const COVERING = new Set(
    'button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option radio rowheader switch tab tooltip treeitem'.split(
      ' ',
    ),
  );

  function fullRead(request: WalkRequest): ModelRead {
    const nodes = walker.nodes(request) ?? [];
    begin(nodes);
    return { kind: 'full', version, json: walker.encodeSnapshot(nodes) };
  }

  /**
   * One read of the whole document without boxes: from the model when `base` is the read it last
   * answered and it can place every change since, else a full walk that restarts it.
   */
  function read(base: ModelBase | null, force: boolean): ModelRead {
    const request: WalkRequest = { bounds: false };
    if (force || !base || !active || base.documentId !== registry.documentId || base.version !== version)
      return fullRead(request);
    if (observer) onRecords(observer.takeRecords());
    if (!unsure && location.href !== url) markUnsure();
    if (!unsure) for (const control of controlStates.changed()) mark(control, SELF);
    const nowFocused = unsure ? null : states.deepActiveElement();
    if (!unsure && nowFocused !== focused) {
      if (rules.focusWithin) markUnsure();
      else {
        if (focused?.isConnected) mark(focused, SELF);
        mark(nowFocused, SELF);
      }
    }
    if (unsure) return fullRead(request);
    if (dirty.size === 0 && !titleChanged && document.title === title)
      return { kind: 'same', version, url, title };
    const regions: Region[] = [];
    for (const [node, how] of dirty) {
      if (!node.isConnected) continue;
      const region = regionOf(node, how);
      if (!region) return fullRead(request);
      regions.push(region);
    }
    const roots = regions.filter(
      (region, index) =>
        !regions.some((other, otherIndex) =>
          other.root !== region.root ? other.root.contains(region.root) : otherIndex < index,
        ),
    );
    if (roots.length > MAX_REGIONS) return fullRead(request);
    const ancestors = new Map<Node, number>();
    ancestors.set(document, 0);
    for (const region of roots)
      for (const [node, parent] of region.ancestors)
        if (!roots.some((other) => other.root.contains(node))) ancestors.set(node, parent);
    const out: { key: number; nodes: unknown[] }[] = [];
    for (const region of roots) {
      const key = registry.keyOf(region.root);
      // What below the root the last read emitted is learnt again from this walk.
      for (const element of region.root.querySelectorAll('*')) emitted.delete(element);
      const { subtree } = walker.reread(region.root, region.parent, []);
      const first = subtree[0] as [number] | undefined;
      // The root no longer emitted (its name stopped covering, it hid): its parent's region is needed.
      if (!first || first[0] !== key) return fullRead(request);
      for (const tuple of subtree) {
        const [tupleKey, , role] = tuple as [number, number, string];
        if (role === 'text') continue;
        const element = registry.nodeFor(tupleKey);
        if (element) emitted.set(element, role);
      }
      out.push({ key, nodes: subtree });
    }
    const described = walker.reread(null, 0, [...ancestors]).ancestors;
    const detached =
      removed === null
        ? registry.takeDetached()
        : removed.length > 0
          ? registry.takeDetachedWithin(removed)
          : [];
    const base_ = version;
    version += 1;
    dirty = new Map();
    removed = [];
    titleChanged = false;
    focused = nowFocused;
    title = document.title;
    return { kind: 'delta', base: base_, version, url, title, detached, regions: out, described };
  }

  /** The key's tuple changes without a mutation (its value was marked secret). */
  function touch(key: number): void {
    const node = registry.nodeFor(key);
    if (node) mark(node, SELF);
  }

  return { read, touch };
}

export type Model = ReturnType<typeof createModel>;
