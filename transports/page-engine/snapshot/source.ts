/// <reference lib="dom" />
import type { Registry } from './key-registry.js';
import type { States } from './states.js';

/** An element's markup or text as the page engine reads it: the whole length, and at most the asked part. */
export interface SourceRead {
  readonly text: string;
  readonly length: number;
}

/**
 * In-page: an element's markup and text for the cases an accessibility view does not cover, with the same
 * secrets kept as the walker keeps them — password fields and nodes marked secret. Markup carries no typed
 * value (only attributes), but a page may put a password in a `value` attribute, and a value filled with
 * `secret: true` into a contenteditable or textarea is text in the DOM; both read as the redacted value.
 * A self-contained factory: its source is shipped into the page whole, dependencies arrive as arguments.
 */
export function createSource(registry: Registry, states: States, redactedValue: string) {
  /** The secret nodes under `root` (itself included): what a copy of it must not show. */
  function secretsUnder(root: Node): Node[] {
    const found: Node[] = [];
    for (const key of registry.secretKeys()) {
      const node = registry.nodeFor(key);
      if (node && root.contains(node)) found.push(node);
    }
    if (root.nodeType === 1) {
      const element = root as Element;
      if (states.isSecretByNature(element)) found.push(element);
      for (const input of element.querySelectorAll('input[type=password]')) found.push(input);
    }
    return found;
  }

  /** The child indexes leading from `root` down to `node`. */
  function pathTo(root: Node, node: Node): number[] {
    const path: number[] = [];
    for (let at: Node = node; at !== root && at.parentNode; at = at.parentNode) {
      path.unshift(Array.prototype.indexOf.call(at.parentNode.childNodes, at));
    }
    return path;
  }

  /** A deep copy of `root` in which every secret reads as the redacted value; `root` itself when it has none. */
  function redacted(root: Node): Node {
    const secrets = secretsUnder(root);
    if (secrets.length === 0) return root;
    const copy = root.cloneNode(true);
    for (const secret of secrets) {
      let twin: Node | undefined = copy;
      for (const index of pathTo(root, secret)) twin = twin?.childNodes[index];
      if (!twin) continue;
      if (twin.nodeType !== 1) {
        twin.textContent = redactedValue;
        continue;
      }
      const element = twin as Element;
      if (element.hasAttribute('value')) element.setAttribute('value', redactedValue);
      if (element.tagName !== 'INPUT' && element.textContent !== '') element.textContent = redactedValue;
    }
    return copy;
  }

  function cut(text: string, maxChars: number): SourceRead {
    return { text: text.slice(0, Math.max(0, maxChars)), length: text.length };
  }

  /** The element's outer or inner HTML, secrets redacted, cut after `maxChars`. */
  function html(element: Element, outer: boolean, maxChars: number): SourceRead {
    const copy = redacted(element) as Element;
    return cut(outer ? copy.outerHTML : copy.innerHTML, maxChars);
  }

  /** The node's DOM textContent (hidden text included), secrets redacted, cut after `maxChars`. */
  function text(node: Node, maxChars: number): SourceRead {
    return cut(redacted(node).textContent ?? '', maxChars);
  }

  /** The text of a key's node (a document's: its root element's); null once the node has left. */
  function textFor(key: number, maxChars: number): SourceRead | null {
    const node = registry.nodeFor(key);
    if (!node) return null;
    return text(node.nodeType === 9 ? (node as Document).documentElement : node, maxChars);
  }

  return { html, textFor };
}

export type Source = ReturnType<typeof createSource>;
