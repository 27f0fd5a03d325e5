import type { Bounds } from '../../contract/transport.js';
import type { NodeState, RawNode } from '../../contract/window-driver.js';

/**
 * The wire format between the in-page walker and Node: positional tuples, because a 5,000-row page
 * yields ~100k nodes and named keys would double what crosses CDP and what JSON.parse reads.
 * `[key, parent (0 for none), role, name, flags, extras | 0, x?, y?, width?, height?]`, where extras is
 * `{ s: states joined by spaces, l: level, v: value, d: description, u: a link's URL, o: a select's option
 * count }`, each present only when set.
 */
export type NodeTuple = [
  number,
  number,
  string,
  string,
  number,
  0 | Extras,
  number?,
  number?,
  number?,
  number?,
];

interface Extras {
  readonly s?: string;
  readonly l?: number;
  readonly v?: string;
  readonly d?: string;
  readonly u?: string;
  readonly o?: number;
}

const INTERACTIVE_FLAG = 1;
const SECRET_FLAG = 2;
const NO_PARENT = 0;

export function decodeNode(tuple: NodeTuple): RawNode {
  const [key, parent, role, name, flags, extras, x, y, width, height] = tuple;
  const bbox: Bounds | undefined =
    width === undefined ? undefined : { x: x as number, y: y as number, width, height: height as number };
  const node: {
    -readonly [K in keyof RawNode]: RawNode[K];
  } = {
    key,
    parent: parent === NO_PARENT ? null : parent,
    role,
    name,
    states: extras !== 0 && extras.s ? (extras.s.split(' ') as NodeState[]) : [],
    interactive: (flags & INTERACTIVE_FLAG) !== 0,
  };
  if (extras !== 0) {
    if (extras.v !== undefined) node.value = extras.v;
    if (extras.d !== undefined) node.description = extras.d;
    if (extras.l !== undefined) node.level = extras.l;
    if (extras.u !== undefined) node.url = extras.u;
    if (extras.o !== undefined) node.optionCount = extras.o;
  }
  if (bbox) node.bbox = bbox;
  if (flags & SECRET_FLAG) node.secret = true;
  return node;
}
