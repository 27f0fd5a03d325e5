import type { NodeState, RawNode, RawSnapshot } from '../../transports/contract/window-driver.js';

/**
 * Walker output made by hand, for the unit tests and the bench of this folder: the walker itself needs a
 * browser, and these tests are about what happens after it.
 */

export interface TreeSpec extends Partial<Omit<RawNode, 'parent' | 'states'>> {
  readonly role: string;
  readonly states?: readonly NodeState[];
  readonly children?: readonly TreeSpec[];
}

export interface RawOptions {
  readonly documentId?: string;
  readonly detached?: readonly number[];
  /** Keys not given in the spec are numbered from here in document order. */
  readonly firstKey?: number;
}

/** A RawSnapshot of `root`, flattened in pre-order. */
export function rawSnapshot(root: TreeSpec, options: RawOptions = {}): RawSnapshot {
  const nodes: RawNode[] = [];
  let nextKey = options.firstKey ?? 1;
  const visit = (spec: TreeSpec, parent: number | null) => {
    const { children = [], ...fields } = spec;
    const key = spec.key ?? nextKey++;
    nodes.push({ name: '', states: [], interactive: false, ...fields, key, parent });
    for (const child of children) visit(child, key);
  };
  visit(root, null);
  return {
    documentId: options.documentId ?? 'doc-1',
    url: 'file:///fixture.html',
    title: 'Fixture',
    nodes,
    detached: options.detached ?? [],
  };
}

/** Nodes per row of `tablePage`. */
export const NODES_PER_ROW = 10;

export interface TableOptions extends RawOptions {
  /** Rows (0-based) whose checkbox is checked. */
  readonly checkedRows?: readonly number[];
  /** Vertical scroll in pixels: moves every box. */
  readonly scrollY?: number;
}

/**
 * The bench page's shape: a table of `rows` rows, each a name cell, an email cell, a checkbox and a
 * "Delete" button (NODES_PER_ROW nodes a row, plus document and table). Keys are numbered from `firstKey`
 * in document order, so a second page with another `firstKey` is the same page wholly re-rendered.
 */
export function tablePage(rows: number, options: TableOptions = {}): RawSnapshot {
  const checked = new Set(options.checkedRows ?? []);
  const scrollY = options.scrollY ?? 0;
  const row = (i: number): TreeSpec => {
    const bbox = { x: 0, y: 40 + i * 24 - scrollY, width: 800, height: 24 };
    return {
      role: 'row',
      name: `User ${i} user${i}@example.com Delete`,
      bbox,
      children: [
        { role: 'cell', name: `User ${i}`, children: [{ role: 'text', name: `User ${i}` }] },
        {
          role: 'cell',
          name: `user${i}@example.com`,
          children: [{ role: 'text', name: `user${i}@example.com` }],
        },
        {
          role: 'cell',
          children: [
            {
              role: 'checkbox',
              name: `Select user ${i}`,
              interactive: true,
              states: checked.has(i) ? ['CHECKED'] : [],
              bbox,
            },
          ],
        },
        {
          role: 'cell',
          name: 'Delete',
          children: [
            {
              role: 'button',
              name: 'Delete',
              interactive: true,
              bbox,
              children: [{ role: 'text', name: 'Delete' }],
            },
          ],
        },
      ],
    };
  };
  const table: TreeSpec = {
    role: 'table',
    name: 'Users',
    children: Array.from({ length: rows }, (_, i) => row(i)),
  };
  return rawSnapshot({ role: 'document', name: 'Users', children: [table] }, options);
}
