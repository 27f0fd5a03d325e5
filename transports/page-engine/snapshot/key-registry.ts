/// <reference lib="dom" />

/**
 * In-page: the per-document key registry. Node → key through a WeakMap, key → node through WeakRefs, so
 * the registry never keeps a removed node alive. A self-contained factory: its source is shipped into the
 * page whole, and a new registry (with a new document id) is made for every new document.
 */
export function createRegistry() {
  const keys = new WeakMap<Node, number>();
  const nodes = new Map<number, WeakRef<Node>>();
  const secrets = new Set<number>();
  let nextKey = 1;
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const documentId = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

  function keyOf(node: Node): number {
    const known = keys.get(node);
    if (known !== undefined) return known;
    const key = nextKey;
    nextKey += 1;
    keys.set(node, key);
    nodes.set(key, new WeakRef(node));
    return key;
  }

  /** In this document: connected, and every iframe between it and the top document connected too. */
  function isLive(node: Node): boolean {
    let current: Node | null = node;
    while (current?.isConnected) {
      const owner: Document =
        current.nodeType === 9 ? (current as Document) : (current.ownerDocument as Document);
      if (owner === document) return true;
      current = owner.defaultView?.frameElement ?? null;
    }
    return false;
  }

  function nodeFor(key: number): Node | null {
    const node = nodes.get(key)?.deref();
    return node && isLive(node) ? node : null;
  }

  /**
   * Keys whose nodes have left the document since the last call, each reported once and then forgotten
   * (a node that comes back later gets a new key, so a reported key never resurfaces).
   */
  function takeDetached(): number[] {
    const gone: number[] = [];
    for (const [key, ref] of nodes) {
      const node = ref.deref();
      if (node && isLive(node)) continue;
      gone.push(key);
      forget(key, node);
    }
    return gone;
  }

  /**
   * The same, looking only inside subtrees known to have been removed (a mutation record's removedNodes):
   * what a change costs, where `takeDetached` costs every key of the page. A root back in the document was
   * moved, not removed; a node inside one that was moved out is live and not reached.
   */
  function takeDetachedWithin(roots: readonly Node[]): number[] {
    const gone: number[] = [];
    for (const root of roots) {
      if (isLive(root)) continue;
      const walk = document.createTreeWalker(root);
      for (let node: Node | null = root; node; node = walk.nextNode()) {
        const key = keys.get(node);
        if (key === undefined || !nodes.has(key) || isLive(node)) continue;
        gone.push(key);
        forget(key, node);
      }
    }
    return gone;
  }

  function forget(key: number, node: Node | undefined): void {
    nodes.delete(key);
    secrets.delete(key);
    if (node) keys.delete(node);
  }

  return {
    documentId,
    keyOf,
    nodeFor,
    takeDetached,
    takeDetachedWithin,
    markSecret: (key: number) => secrets.add(key),
    isSecret: (key: number) => secrets.has(key),
    /** Keys marked secret whose nodes may still be in the document (page source reads redact them). */
    secretKeys: () => [...secrets],
  };
}

export type Registry = ReturnType<typeof createRegistry>;
