/// <reference lib="dom" />
import type { Layout } from './layout.js';
import type { Roles } from './roles.js';
import type { Visibility } from './visibility.js';

/**
 * In-page: accessible names and descriptions per accname 1.2 (with HTML-AAM's native sources), computed
 * the way Chromium does where the spec leaves room. A self-contained factory: its source is shipped into
 * the page whole, and its dependencies arrive as arguments.
 */
export function createNames(roles: Roles, visibility: Visibility, layout: Layout) {
  /** Where a name came from: the walker needs to know whether the content (or the title) was used. */
  const FROM_CONTENT = 1;
  const FROM_TITLE = 2;
  const FROM_OTHER = 3;
  const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number', '']);

  interface Traversal {
    readonly visited: Set<Node>;
    /** Inside an aria-labelledby/-describedby target that is itself hidden: its hidden content counts too. */
    readonly includeHidden: boolean;
    readonly inReference: boolean;
    /** The element being named: it is skipped when a label that wraps it is read. */
    readonly target: Element;
  }

  const collapse = (text: string) => text.replace(/\s+/g, ' ');
  const normalize = (text: string) => collapse(text).trim();

  function byIds(element: Element, attribute: string): Element[] {
    const ids = element.getAttribute(attribute);
    if (!ids) return [];
    const root = element.getRootNode() as Document | ShadowRoot;
    const found: Element[] = [];
    for (const id of ids.trim().split(/\s+/)) {
      const referenced = root.getElementById(id);
      if (referenced) found.push(referenced);
    }
    return found;
  }

  function fromReferences(element: Element, attribute: string, traversal: Traversal | null): string {
    const parts: string[] = [];
    for (const referenced of byIds(element, attribute)) {
      const nested: Traversal = {
        visited: traversal?.visited ?? new Set(),
        includeHidden: visibility.hiddenForName(referenced),
        inReference: true,
        target: traversal?.target ?? element,
      };
      parts.push(textOf(referenced, nested, true));
    }
    return normalize(parts.join(' '));
  }

  function selectedText(select: HTMLSelectElement): string {
    // selectedOptions builds a live collection on every read; a single select has one selected option at most.
    if (!select.multiple) return select.options[select.selectedIndex]?.label ?? '';
    const texts: string[] = [];
    for (const option of select.selectedOptions) texts.push(option.label);
    return texts.join(' ');
  }

  /** The value an embedded control contributes to the name of the widget whose label contains it. */
  function embeddedValue(element: Element): string | null {
    const tag = element.tagName;
    if (tag === 'SELECT') return selectedText(element as HTMLSelectElement);
    if (tag === 'TEXTAREA') return (element as HTMLTextAreaElement).value;
    if (tag === 'INPUT') {
      const input = element as HTMLInputElement;
      if (TEXT_INPUT_TYPES.has(input.type) || input.type === 'range') return input.value;
      return null;
    }
    const role = element.hasAttributes() ? element.getAttribute('role') : null;
    if (role === 'textbox') return element.textContent ?? '';
    if (role === 'slider' || role === 'spinbutton')
      return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? '';
    return null;
  }

  // HTMLInputElement.labels scans the whole tree on every read (quadratic over a page of controls), so the
  // labels of each tree (document or shadow root) are indexed once per pass by their `control`.
  let labelIndex = new Map<Node, Map<Element, Element[]>>();

  function labelsOf(control: Element): Element[] | undefined {
    const root = control.getRootNode();
    let index = labelIndex.get(root);
    if (!index) {
      index = new Map();
      // A document's label collection is live and kept by the browser between passes; a shadow root has none.
      const labels =
        root.nodeType === 9
          ? (root as Document).getElementsByTagName('label')
          : (root as ShadowRoot).querySelectorAll('label');
      for (const label of labels) {
        const labelled = (label as HTMLLabelElement).control;
        if (!labelled) continue;
        const list = index.get(labelled);
        if (list) list.push(label);
        else index.set(labelled, [label]);
      }
      labelIndex.set(root, index);
    }
    return index.get(control);
  }

  function labelsText(control: Element, traversal: Traversal): string {
    const labels = labelsOf(control);
    if (!labels) return '';
    const parts: string[] = [];
    for (const label of labels) parts.push(textOf(label, traversal, true));
    return normalize(parts.join(' '));
  }

  /** Starts a pass over the document: labels indexed by an earlier pass may have changed. */
  // A row's name reads its cells' text, and each cell is named next: plain content text (no references,
  // no hidden content in play) does not depend on who asks, so it is computed once per pass.
  let contentCache = new Map<Element, string>();

  function beginPass(): void {
    labelIndex = new Map();
    contentCache = new Map();
    layout.beginPass();
  }

  function firstChildText(element: Element, tag: string, traversal: Traversal): string {
    for (const child of element.children)
      if (child.tagName === tag) return normalize(textOf(child, traversal, true));
    return '';
  }

  /** HTML-AAM's native text alternatives, before the content and the title. */
  function nativeName(element: Element, traversal: Traversal): string {
    switch (element.tagName) {
      case 'INPUT': {
        const input = element as HTMLInputElement;
        if (input.type === 'button' || input.type === 'submit' || input.type === 'reset') {
          const value = input.getAttribute('value');
          if (value !== null) return value;
          return input.type === 'submit' ? 'Submit' : input.type === 'reset' ? 'Reset' : '';
        }
        if (input.type === 'image') return input.alt || input.getAttribute('value') || '';
        return labelsText(element, traversal);
      }
      case 'SELECT':
      case 'TEXTAREA':
      case 'METER':
      case 'PROGRESS':
      case 'OUTPUT':
      case 'BUTTON':
        return labelsText(element, traversal);
      case 'IMG':
      case 'AREA':
        return element.getAttribute('alt') ?? '';
      case 'TABLE':
        return firstChildText(element, 'CAPTION', traversal);
      case 'FIELDSET':
        return firstChildText(element, 'LEGEND', traversal);
      case 'FIGURE':
        return firstChildText(element, 'FIGCAPTION', traversal);
      case 'OPTGROUP':
        return element.getAttribute('label') ?? '';
      case 'OPTION':
        return (element as HTMLOptionElement).label;
      case 'svg':
        return firstChildText(element, 'title', traversal);
    }
    return '';
  }

  function placeholderOf(element: Element): string {
    if (element.tagName === 'TEXTAREA') return element.getAttribute('placeholder') ?? '';
    if (element.tagName === 'INPUT' && TEXT_INPUT_TYPES.has((element as HTMLInputElement).type))
      return element.getAttribute('placeholder') ?? '';
    return '';
  }

  /** The flat-tree children of a node: a shadow host's shadow root, a slot's assigned nodes. */
  function childrenOf(node: Node): ArrayLike<Node> {
    const element = node as Element;
    if (element.shadowRoot) return element.shadowRoot.childNodes;
    if (element.tagName === 'SLOT') {
      const assigned = (element as HTMLSlotElement).assignedNodes();
      if (assigned.length > 0) return assigned;
    }
    return node.childNodes;
  }

  /**
   * One value of `content` (strings, attr()), read from its computed serialization. Counters, quotes
   * and images give no text, as in Chromium's names; after a `/`, the alternative text replaces it all.
   */
  function generatedText(element: Element, content: string): { text: string; alternative: boolean } {
    let text = '';
    let alternative = false;
    const tokens =
      /"((?:[^"\\]|\\.)*)"|attr\(\s*([^\s)]+)\s*\)|(\/)|url\((?:[^)"]|"(?:[^"\\]|\\.)*")*\)|[a-z-]+\([^)]*\)|\S+/g;
    for (const match of content.matchAll(tokens)) {
      if (match[3]) {
        text = '';
        alternative = true;
      } else if (match[1] !== undefined) text += match[1].replace(/\\(.)/g, '$1');
      else if (match[2] !== undefined) text += element.getAttribute(match[2]) ?? '';
    }
    return { text, alternative };
  }

  /** accname 2F.ii: the textual content of the element's ::before or ::after; asked only where a sheet may give it any. */
  function pseudoText(element: Element, pseudo: '::before' | '::after'): string {
    const style = layout.pseudoStyleOf(element, pseudo);
    const content = style.content;
    if (!content || content === 'none' || content === 'normal') return '';
    const { text, alternative } = generatedText(element, content);
    if (!text) return '';
    // Alternative text is exposed as its own (image-like) object, so it stands apart like a block.
    return alternative || layout.flowOfDisplay(style.display) !== layout.INLINE ? ` ${text} ` : text;
  }

  function addPart(text: string, child: Node, traversal: Traversal): string {
    if (child.nodeType === 3) return text + (child as Text).data;
    if (child.nodeType !== 1) return text;
    const element = child as Element;
    // A line break is whitespace wherever it stands.
    if (element.tagName === 'BR') return `${text} `;
    const part = textOf(element, traversal, false);
    // What is not exposed is not there at all: it separates nothing.
    if (!part && !traversal.includeHidden && visibility.classify(element) !== visibility.VISIBLE) return text;
    // An empty replaced element (an <img alt="">) is presentational: it separates nothing either.
    if (layout.flowOf(element) === layout.INLINE || (!part && layout.isReplaced(element))) return text + part;
    return `${text} ${part} `;
  }

  function contentText(element: Element, traversal: Traversal): string {
    const pseudo = layout.mayHavePseudo(element);
    let text = pseudo ? pseudoText(element, '::before') : '';
    if (element.shadowRoot || element.tagName === 'SLOT') {
      const children = childrenOf(element);
      for (let i = 0; i < children.length; i += 1) text = addPart(text, children[i] as Node, traversal);
    } else {
      for (let child = element.firstChild; child; child = child.nextSibling)
        text = addPart(text, child, traversal);
    }
    return pseudo ? text + pseudoText(element, '::after') : text;
  }

  /**
   * One step of the text alternative computation for `element` (accname 2A–2I). `referenced` is true for
   * the start of a traversal from aria-labelledby or a label, where content counts whatever the role.
   */
  function textOf(element: Element, traversal: Traversal, referenced: boolean): string {
    const plain = !referenced && !traversal.includeHidden && !traversal.inReference;
    if (plain) {
      const cached = contentCache.get(element);
      if (cached !== undefined) return cached;
      const text = textOfUncached(element, traversal, referenced);
      contentCache.set(element, text);
      return text;
    }
    return textOfUncached(element, traversal, referenced);
  }

  function textOfUncached(element: Element, traversal: Traversal, referenced: boolean): string {
    if (traversal.visited.has(element)) return '';
    traversal.visited.add(element);
    if (!traversal.includeHidden && !referenced) {
      const kind = visibility.classify(element);
      if (kind === visibility.GONE || kind === visibility.INVISIBLE) return '';
    }
    const attributed = element.hasAttributes();
    if (attributed && !traversal.inReference) {
      const labelled = fromReferences(element, 'aria-labelledby', traversal);
      if (labelled) return labelled;
    }
    if (element !== traversal.target) {
      const embedded = embeddedValue(element);
      if (embedded !== null) return embedded;
    } else if (!referenced) return '';
    const label = attributed ? element.getAttribute('aria-label')?.trim() : undefined;
    if (label) return label;
    const native = nativeName(element, traversal);
    if (native.trim()) return native;
    if (element.tagName !== 'SELECT') {
      // Collapsed but not trimmed: the spaces at its edges are the word breaks between it and its
      // neighbours (`<span>curl -X </span><span>'GET'</span>`); only the whole name is trimmed.
      const content = collapse(contentText(element, traversal));
      if (content.trim()) return content;
      if (content && !(attributed && element.getAttribute('title'))) return content;
    }
    return attributed ? (element.getAttribute('title') ?? '') : '';
  }

  /**
   * The accessible name of an element the walker emits with `role`, and where it came from. Content is
   * used only for roles that allow it (or none at all for the rest).
   */
  function nameOf(element: Element, role: string): { name: string; source: number } {
    const attributed = element.hasAttributes();
    const traversal: Traversal = {
      visited: new Set([element]),
      includeHidden: false,
      inReference: false,
      target: element,
    };
    if (attributed) {
      const labelled = fromReferences(element, 'aria-labelledby', traversal);
      if (labelled) return { name: labelled, source: FROM_OTHER };
      const label = element.getAttribute('aria-label');
      if (label?.trim()) return { name: normalize(label), source: FROM_OTHER };
    }
    const native = normalize(nativeName(element, traversal));
    if (native) return { name: native, source: FROM_OTHER };
    if (roles.nameFromContent(role)) {
      // An ancestor's name (a row's) has read this content already: when it found text, that text is the
      // content this name reads (the steps before content are the same ones, and none of them applied).
      const known = embeddedValue(element) === null ? contentCache.get(element) : undefined;
      const content = known?.trim() ? normalize(known) : normalize(contentText(element, traversal));
      if (content) return { name: content, source: FROM_CONTENT };
    }
    if (!attributed) return { name: '', source: FROM_OTHER };
    const placeholder = normalize(placeholderOf(element));
    if (placeholder) return { name: placeholder, source: FROM_OTHER };
    const title = element.getAttribute('title');
    if (title?.trim()) return { name: normalize(title), source: FROM_TITLE };
    return { name: '', source: FROM_OTHER };
  }

  /** aria-describedby, else aria-description, else a title that did not already serve as the name. */
  function descriptionOf(element: Element, nameSource: number): string {
    if (!element.hasAttributes()) return '';
    const described = fromReferences(element, 'aria-describedby', null);
    if (described) return described;
    const description = element.getAttribute('aria-description');
    if (description?.trim()) return normalize(description);
    if (nameSource === FROM_TITLE) return '';
    return normalize(element.getAttribute('title') ?? '');
  }

  /** True when the element has a name from attributes or labels (for roles that need one, e.g. region). */
  function hasName(element: Element): boolean {
    return (
      element.hasAttribute('aria-label') ||
      element.hasAttribute('aria-labelledby') ||
      element.hasAttribute('title')
    );
  }

  return { FROM_CONTENT, FROM_TITLE, beginPass, nameOf, descriptionOf, hasName };
}

export type Names = ReturnType<typeof createNames>;
