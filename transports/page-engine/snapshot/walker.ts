/// <reference lib="dom" />

import type { Wire } from './encoding.js';
import type { Frame, Geometry } from './geometry.js';
import type { Registry } from './key-registry.js';
import type { Names } from './names.js';
import type { Roles } from './roles.js';
import type { States } from './states.js';
import type { Run, TextRuns } from './text-runs.js';
import type { Visibility } from './visibility.js';

/** What the Node side asks of one walk (window-driver's SnapshotRequest). */
export interface WalkRequest {
  readonly within?: number;
  readonly interactiveOnly?: boolean;
  readonly depth?: number;
  readonly bounds?: boolean;
  /** Only nodes of this role are described in full; the rest keep their key and role (a role target's walk). */
  readonly role?: string;
}

/**
 * In-page: walks the flat tree (open shadow roots, slots in assigned order, same-origin iframes inline)
 * and encodes the accessibility nodes it emits as compact tuples (see encoding.ts for the layout), so
 * the whole snapshot crosses CDP as one JSON string instead of tens of thousands of serialized objects.
 * A self-contained factory: its source is shipped into the page whole, dependencies arrive as arguments.
 */
export function createWalker(
  roles: Roles,
  names: Names,
  states: States,
  visibility: Visibility,
  textRuns: TextRuns,
  geometry: Geometry,
  registry: Registry,
  redactedValue: string,
  wire: Wire,
) {
  const INTERACTIVE_FLAG = 1;
  const SECRET_FLAG = 2;

  /** What a subtree inherits from above it. */
  interface Scope {
    /** Key of the nearest emitted ancestor. */
    readonly parent: number;
    /** Output levels below the snapshot's root. */
    readonly depth: number;
    /** False below a visibility:hidden element (until a descendant shows itself again). */
    readonly textShown: boolean;
    /** True below an ancestor whose name was read from this content. */
    readonly covered: boolean;
    /** An ancestor has aria-disabled=true. */
    readonly disabled: boolean;
    /** Offset of the current document's viewport within the top viewport. */
    readonly frame: Frame;
  }
  interface Walk {
    readonly out: unknown[];
    readonly interactiveOnly: boolean;
    readonly maxDepth: number;
    readonly bounds: boolean;
    readonly focused: Element | null;
    readonly range: Range;
    readonly role: string | undefined;
    run: Run | null;
    /** The document's base URL without its fragment, once a link needs it. */
    fragmentBase?: string;
  }

  /** One node's tuple: [key, parent, role, name, flags, extras | 0, x, y, width, height]. */
  function encode(
    element: Element,
    role: string,
    parent: number,
    walk: Walk,
    frame: Frame,
    disabledAbove: boolean,
    hasBox: boolean,
  ): { tuple: unknown[]; nameSource: number } {
    const key = registry.keyOf(element);
    // A role target's walk names only what it may match, and what decides whether text below is covered.
    if (walk.role !== undefined && role !== walk.role) {
      const source = roles.coversText(role) ? names.nameOf(element, role).source : 0;
      return { tuple: [key, parent, role, '', 0, 0], nameSource: source };
    }
    const { name, source } =
      role === 'iframe'
        ? { name: element.getAttribute('title') ?? '', source: 0 }
        : names.nameOf(element, role);
    const interactive = roles.isInteractive(element, role);
    const secret = registry.isSecret(key) || states.isSecretByNature(element);
    let flags = interactive ? INTERACTIVE_FLAG : 0;
    if (secret) flags |= SECRET_FLAG;
    // Only the facts a node has are set: most nodes have none, and then cross CDP as a bare 0.
    const extras: Record<string, unknown> = {};
    const stateList = states.statesOf(element, role, walk.focused, disabledAbove);
    if (stateList.length > 0) extras.s = stateList.join(' ');
    const level = roles.levelOf(element, role);
    if (level !== undefined) extras.l = level;
    const value = states.controlValue(element, role);
    if (value !== undefined || secret) extras.v = secret ? redactedValue : value;
    const description = names.descriptionOf(element, source);
    if (description) extras.d = description;
    // Where a link goes and how many options a select holds: a listing shows both in a few characters.
    const href = role === 'link' ? linkUrl(element, walk) : undefined;
    if (typeof href === 'string' && href !== '') extras.u = href;
    if (element.tagName === 'SELECT') extras.o = (element as HTMLSelectElement).options.length;
    const tuple: unknown[] = [key, parent, role, name, flags, Object.keys(extras).length > 0 ? extras : 0];
    const box = hasBox && walk.bounds ? geometry.bboxOf(element.getBoundingClientRect(), frame) : null;
    if (box) tuple.push(box[0], box[1], box[2], box[3]);
    return { tuple, nameSource: source };
  }

  // The href getter parses and serializes a URL per link. A same-document fragment link, the most common
  // kind in an app, resolves to the document's base URL with its fragment replaced, so that is read once a walk.
  const PLAIN_FRAGMENT = /^#[\w.~-]*$/;

  function linkUrl(element: Element, walk: Walk): unknown {
    if (element.tagName === 'A' && element.ownerDocument === document) {
      const attribute = element.getAttribute('href');
      if (attribute !== null && PLAIN_FRAGMENT.test(attribute)) {
        walk.fragmentBase ??= document.baseURI.replace(/#.*$/s, '');
        return walk.fragmentBase + attribute;
      }
    }
    return (element as HTMLAnchorElement).href;
  }

  function walkChildren(first: Node | null, scope: Scope, walk: Walk): void {
    for (let child = first; child; child = child.nextSibling) walkNode(child, scope, walk);
  }

  function walkNode(node: Node, scope: Scope, walk: Walk): void {
    if (node.nodeType === 3) {
      if (scope.textShown && !scope.covered && !walk.interactiveOnly && scope.depth < walk.maxDepth)
        textRuns.addText(node as Text, scope.parent, walk, scope.frame);
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const slot = element.tagName === 'SLOT';
    const kind = slot ? visibility.CONTENTS : visibility.classify(element);
    if (kind === visibility.GONE) return;
    const disabled =
      scope.disabled || (element.hasAttributes() && element.getAttribute('aria-disabled') === 'true');
    const inner: Scope = disabled === scope.disabled ? scope : { ...scope, disabled };
    if (kind === visibility.INVISIBLE) {
      walkContents(element, inner.textShown ? { ...inner, textShown: false } : inner, walk);
      return;
    }
    let role = slot ? null : roles.roleOf(element, names.hasName);
    if (role === null && !slot && roles.isInteractive(element, 'generic')) role = 'generic';
    // Below an ancestor whose name already reads this content, only what an agent acts on is emitted.
    const included =
      role !== null && (!(walk.interactiveOnly || scope.covered) || roles.isInteractive(element, role));
    if (!included || role === null) {
      // Text across inline elements merges into one run, an inline-block's set apart by spaces; any other
      // element not emitted ends the run (a line break).
      const flow = textRuns.flowOf(element);
      textRuns.breakRun(flow, walk);
      walkContents(
        element,
        kind === visibility.VISIBLE && !inner.textShown ? { ...inner, textShown: true } : inner,
        walk,
      );
      textRuns.breakRun(flow, walk);
      return;
    }
    if (scope.depth + 1 > walk.maxDepth) return;
    textRuns.flush(walk);
    const { tuple, nameSource } = encode(
      element,
      role,
      scope.parent,
      walk,
      scope.frame,
      disabled,
      kind === visibility.VISIBLE,
    );
    walk.out.push(tuple);
    // An emitted node starts afresh: a combobox inside a cell still lists its options.
    const covered = nameSource === names.FROM_CONTENT && roles.coversText(role);
    walkContents(
      element,
      {
        parent: tuple[0] as number,
        depth: scope.depth + 1,
        textShown: true,
        covered,
        disabled,
        frame: scope.frame,
      },
      walk,
    );
    textRuns.flush(walk);
  }

  function walkContents(element: Element, scope: Scope, walk: Walk): void {
    const tag = element.tagName;
    if (tag === 'SELECT') {
      if (!walk.interactiveOnly && !scope.covered) walkOptions(element, scope, walk);
      return;
    }
    if (tag === 'IFRAME') {
      let inner: Document | null = null;
      try {
        inner = (element as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null;
      }
      const body = inner?.body ?? inner?.documentElement;
      if (!body) return;
      const frame = geometry.contentOrigin(element as HTMLIFrameElement, scope.frame);
      walkChildren(body.firstChild, { ...scope, frame }, walk);
      return;
    }
    if (element.shadowRoot) {
      walkChildren(element.shadowRoot.firstChild, scope, walk);
      return;
    }
    if (tag === 'SLOT') {
      const assigned = (element as HTMLSlotElement).assignedNodes();
      if (assigned.length > 0) {
        for (const node of assigned) walkNode(node, scope, walk);
        return;
      }
    }
    walkChildren(element.firstChild, scope, walk);
  }

  /** A select's options render no boxes of their own, so they skip the visibility check. */
  function walkOptions(select: Element, scope: Scope, walk: Walk): void {
    if (scope.depth + 1 > walk.maxDepth) return;
    for (let child = select.firstElementChild; child; child = child.nextElementSibling) {
      if (child.tagName !== 'OPTION' && child.tagName !== 'OPTGROUP') continue;
      const role = child.tagName === 'OPTION' ? 'option' : 'group';
      const { tuple } = encode(child, role, scope.parent, walk, scope.frame, scope.disabled, false);
      walk.out.push(tuple);
      if (role === 'group')
        walkOptions(child, { ...scope, parent: tuple[0] as number, depth: scope.depth + 1 }, walk);
    }
  }

  /** The key of the nearest ancestor the walker would emit (through shadow hosts and iframes). */
  function emittedAncestorKey(element: Element): number {
    let node: Node = element;
    for (;;) {
      const parentNode: Node | null = node.parentNode;
      if (!parentNode) return registry.keyOf(document);
      if (parentNode.nodeType === 11) node = (parentNode as ShadowRoot).host;
      else if (parentNode.nodeType === 9) {
        const frameElement: Element | null | undefined = (parentNode as Document).defaultView?.frameElement;
        if (!frameElement || parentNode === document) return registry.keyOf(document);
        node = frameElement;
      } else node = parentNode;
      const ancestor = node as Element;
      if (ancestor.tagName === 'IFRAME' || roles.roleOf(ancestor, names.hasName) !== null)
        return registry.keyOf(ancestor);
    }
  }

  function newWalk(request: WalkRequest): Walk {
    names.beginPass();
    visibility.beginPass();
    return {
      out: [],
      interactiveOnly: request.interactiveOnly === true,
      maxDepth: request.depth ?? Number.POSITIVE_INFINITY,
      bounds: request.bounds !== false,
      focused: states.deepActiveElement(),
      range: document.createRange(),
      role: request.role,
      run: null,
    };
  }

  function describeOne(element: Element, walk: Walk, parent: number): unknown[] {
    const role = roles.roleOf(element, names.hasName) ?? 'generic';
    const disabled = element.closest('[aria-disabled=true]') !== null;
    const frame = geometry.originOf(element.ownerDocument);
    return encode(element, role, parent, walk, frame, disabled, true).tuple;
  }

  /**
   * The snapshot's node tuples in pre-order, null when `within` is gone. Targets by role and name match
   * against these very tuples, so a name the snapshot shows is a name a target finds.
   */
  function nodes(request: WalkRequest): unknown[] | null {
    const walk = newWalk(request);
    let rootNode: Node | null = document;
    if (request.within !== undefined) {
      rootNode = registry.nodeFor(request.within);
      if (!rootNode) return null;
    }
    const frame =
      rootNode.nodeType === 9
        ? { x: 0, y: 0 }
        : geometry.originOf((rootNode as Node).ownerDocument as Document);
    if (rootNode.nodeType === 9) {
      const key = registry.keyOf(document);
      walk.out.push([key, 0, 'document', document.title.replace(/\s+/g, ' ').trim(), 0, 0]);
      const scope: Scope = { parent: key, depth: 0, textShown: true, covered: false, disabled: false, frame };
      if (document.body) walkChildren(document.body.firstChild, scope, walk);
    } else if (rootNode.nodeType === 3) {
      textRuns.addText(rootNode as Text, 0, walk, frame);
      textRuns.flush(walk);
    } else {
      const element = rootNode as Element;
      const tuple = describeOne(element, walk, 0);
      walk.out.push(tuple);
      const disabled = element.closest('[aria-disabled=true]') !== null;
      walkContents(
        element,
        { parent: tuple[0] as number, depth: 0, textShown: true, covered: false, disabled, frame },
        walk,
      );
    }
    textRuns.flush(walk);
    return walk.out;
  }

  /** The snapshot as wire text (encoding.ts): a header { documentId, url, title, detached }, then records. */
  function snapshot(request: WalkRequest): string {
    const out = nodes(request);
    if (!out) return JSON.stringify({ stale: true, documentId: registry.documentId });
    return encodeSnapshot(out);
  }

  /** Tuples of a whole walk as snapshot() sends them, with the keys detached since the last call. */
  function encodeSnapshot(tuples: readonly unknown[]): string {
    const { documentId } = registry;
    const detached = registry.takeDetached();
    return wire.snapshot({ documentId, url: location.href, title: document.title, detached }, tuples);
  }

  /** One element as the walker would describe it (its parent: the nearest ancestor the walker emits). */
  function describe(element: Element): string {
    const walk = newWalk({});
    const tuple = describeOne(element, walk, emittedAncestorKey(element));
    return JSON.stringify({ documentId: registry.documentId, node: tuple });
  }

  /** The element a key stands for: a text node's key stands for its parent element. */
  function elementFor(key: number): Element | null {
    const node = registry.nodeFor(key);
    if (!node) return null;
    if (node.nodeType === 1) return node as Element;
    if (node.nodeType === 9) return (node as Document).documentElement;
    return node.parentElement;
  }

  /**
   * What an incremental read (model.ts) splices into an earlier full walk of the whole document, read as
   * that walk reads it: `element` and everything below it, when `parent` is the key of its nearest emitted
   * ancestor and that ancestor's name does not cover its content (the element's tuple first when it is
   * still emitted); and each of `ancestors` described alone, a node's tuple with the parent it had.
   */
  function reread(
    element: Element | null,
    parent: number,
    ancestors: readonly (readonly [Node, number])[],
  ): { subtree: unknown[]; ancestors: unknown[][] } {
    const walk = newWalk({ bounds: false });
    const origin = { x: 0, y: 0 };
    if (element) {
      const disabled = element.parentElement?.closest('[aria-disabled=true]') != null;
      const scope: Scope = { parent, depth: 0, textShown: true, covered: false, disabled, frame: origin };
      walkNode(element, scope, walk);
      textRuns.flush(walk);
    }
    const described: unknown[][] = [];
    for (const [node, above] of ancestors) {
      if (node.nodeType === 9)
        described.push([
          registry.keyOf(node),
          0,
          'document',
          document.title.replace(/\s+/g, ' ').trim(),
          0,
          0,
        ]);
      else described.push(describeOne(node as Element, walk, above));
    }
    return { subtree: walk.out, ancestors: described };
  }

  return {
    snapshot,
    encodeSnapshot,
    nodes,
    describe,
    elementFor,
    reread,
    markSecret: registry.markSecret,
    documentId: registry.documentId,
  };
}

export type Walker = ReturnType<typeof createWalker>;
