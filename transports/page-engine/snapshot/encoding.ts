import type { Bounds } from '../../contract/bounds.js';
import type { NodeState, RawNode } from '../../contract/window-driver.js';
import { inTurns } from '../../protocol/in-turns.js';

/*
 * Two encodings cross from the in-page walker to Node.
 *
 * Tuples (NodeTuple), for one node or a few (`describe`, role targets, partial re-reads): positional
 * arrays `[key, parent (0 for none), role, name, flags, extras | 0, x?, y?, width?, height?]`, where extras
 * is `{ s: states joined by spaces, l: level, v: value, d: description, u: a link's URL, o: a select's
 * option count }`, each present only when set. decodeNode reads one.
 *
 * Wire text, for a whole snapshot (`walker.snapshot`): a 5,000-row page is 60,000 nodes, and as JSON tuples
 * it is 3.3 MB that CDP escapes again (every quote becomes \") and Node parses twice. The wire text is
 *   <header JSON> "\n" <record>*
 * header: `{ documentId, url, title, detached, roles }` (or `{ stale: true, documentId }`), `roles` being the
 * table the records' role numbers index. A record is comma-terminated decimal integers, each string field
 * preceded by its length in UTF-16 units, so no character of a name needs escaping and none is special:
 *   keyDelta, parentDelta, roleIndex, flags, nameLength, name
 *   [extrasLength, extras JSON]      when flags & WIRE_EXTRAS
 *   [x, y, width, height]            when flags & WIRE_BOX
 * keyDelta is the key minus the previous record's key (the first: minus 0), parentDelta the key minus the
 * parent's key (0 for no parent); walks hand out keys in document order, so both are mostly 1-3 digits.
 * Flags: 1 interactive, 2 secret (as in tuples), 4 extras follow, 8 a box follows. A record is ~20
 * characters where its tuple was ~55, and CDP escapes nothing in it. decodeWire reads it back in one loop
 * (plain JSON snapshots, `{ ..., nodes: NodeTuple[] }`, are still read, by the tuples' decoder).
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
const WIRE_EXTRAS = 4;
const WIRE_BOX = 8;
const NO_PARENT = 0;
const COMMA = 44;
const MINUS = 45;
const ZERO = 48;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function withExtras(node: Mutable<RawNode>, extras: Extras): void {
  if (extras.s) node.states = extras.s.split(' ') as NodeState[];
  if (extras.v !== undefined) node.value = extras.v;
  if (extras.d !== undefined) node.description = extras.d;
  if (extras.l !== undefined) node.level = extras.l;
  if (extras.u !== undefined) node.url = extras.u;
  if (extras.o !== undefined) node.optionCount = extras.o;
}

export function decodeNode(tuple: NodeTuple): RawNode {
  const [key, parent, role, name, flags, extras, x, y, width, height] = tuple;
  const bbox: Bounds | undefined =
    width === undefined ? undefined : { x: x as number, y: y as number, width, height: height as number };
  const node: Mutable<RawNode> = {
    key,
    parent: parent === NO_PARENT ? null : parent,
    role,
    name,
    states: [],
    interactive: (flags & INTERACTIVE_FLAG) !== 0,
  };
  if (extras !== 0) withExtras(node, extras);
  if (bbox) node.bbox = bbox;
  if (flags & SECRET_FLAG) node.secret = true;
  return node;
}

/** What the page sends for a whole snapshot, decoded. */
export interface WireSnapshot {
  readonly stale?: true;
  readonly documentId: string;
  readonly url: string;
  readonly title: string;
  readonly detached: number[];
  readonly nodes: RawNode[];
}

interface WireHeader {
  readonly stale?: true;
  readonly documentId: string;
  readonly url: string;
  readonly title: string;
  readonly detached: number[];
  readonly roles?: string[];
  /** Only in a plain JSON snapshot. */
  readonly nodes?: NodeTuple[];
}

/**
 * Records decoded between two pauses, a few milliseconds of work: a 5,000-row page sends 60,000 of them,
 * and other sessions' operations run in between.
 */
const RECORDS_PER_STEP = 8_192;

/** Reads a whole snapshot as the page sent it: wire text, or a plain JSON object of tuples. */
export async function decodeWire(text: string): Promise<WireSnapshot> {
  const newline = text.indexOf('\n');
  const header = JSON.parse(newline < 0 ? text : text.slice(0, newline)) as WireHeader;
  const nodes =
    header.nodes !== undefined
      ? header.nodes.map(decodeNode)
      : newline < 0
        ? []
        : await inTurns(decodeRecords(text, newline + 1, header.roles ?? []));
  return {
    ...(header.stale ? { stale: true } : {}),
    documentId: header.documentId,
    url: header.url,
    title: header.title,
    detached: header.detached ?? [],
    nodes,
  };
}

/**
 * The records of wire text from `start` to its end, with `roles` the header's role table. One pass with
 * no intermediate strings but the names themselves; pauses every RECORDS_PER_STEP records.
 */
function* decodeRecords(text: string, start: number, roles: readonly string[]): Generator<void, RawNode[]> {
  const nodes: RawNode[] = [];
  let at = start;
  const end = text.length;
  const int = (): number => {
    let code = text.charCodeAt(at);
    let sign = 1;
    if (code === MINUS) {
      sign = -1;
      at += 1;
      code = text.charCodeAt(at);
    }
    let value = 0;
    while (code !== COMMA) {
      if (!(code >= ZERO && code <= ZERO + 9)) throw new Error(`bad snapshot wire text at ${at}`);
      value = value * 10 + (code - ZERO);
      at += 1;
      code = text.charCodeAt(at);
    }
    at += 1;
    return sign * value;
  };
  const str = (): string => {
    const length = int();
    const value = text.slice(at, at + length);
    at += length;
    return value;
  };
  let key = 0;
  while (at < end) {
    key += int();
    const parentDelta = int();
    const role = roles[int()];
    const flags = int();
    const name = str();
    if (role === undefined) throw new Error(`bad snapshot wire text: no role before ${at}`);
    const node: Mutable<RawNode> = {
      key,
      parent: parentDelta === 0 ? null : key - parentDelta,
      role,
      name,
      states: [],
      interactive: (flags & INTERACTIVE_FLAG) !== 0,
    };
    if (flags & WIRE_EXTRAS) withExtras(node, JSON.parse(str()) as Extras);
    if (flags & WIRE_BOX) node.bbox = { x: int(), y: int(), width: int(), height: int() };
    if (flags & SECRET_FLAG) node.secret = true;
    nodes.push(node);
    if (nodes.length % RECORDS_PER_STEP === 0) yield;
  }
  return nodes;
}

/**
 * In-page: writes tuples as wire text (see the top of this file). A self-contained factory: its source is
 * shipped into the page whole.
 */
export function createWire() {
  const EXTRAS = 4;
  const BOX = 8;

  /** The records of `tuples`, their roles numbered in `roles` (extended as new roles appear). */
  function records(tuples: readonly unknown[], roles: Map<string, number>): string {
    let text = '';
    let previous = 0;
    for (const item of tuples) {
      const tuple = item as unknown[];
      const key = tuple[0] as number;
      const parent = tuple[1] as number;
      const role = tuple[2] as string;
      const name = tuple[3] as string;
      const extras = tuple[5];
      let index = roles.get(role);
      if (index === undefined) {
        index = roles.size;
        roles.set(role, index);
      }
      let flags = tuple[4] as number;
      const extrasJson = extras === 0 ? '' : JSON.stringify(extras);
      if (extrasJson) flags |= EXTRAS;
      const boxed = tuple.length > 6;
      if (boxed) flags |= BOX;
      text += `${key - previous},${parent === 0 ? 0 : key - parent},${index},${flags},${name.length},${name}`;
      if (extrasJson) text += `${extrasJson.length},${extrasJson}`;
      if (boxed) text += `${tuple[6]},${tuple[7]},${tuple[8]},${tuple[9]},`;
      previous = key;
    }
    return text;
  }

  /** A whole snapshot: the header (`meta` plus the role table) and the records of `tuples`. */
  function snapshot(meta: Record<string, unknown>, tuples: readonly unknown[]): string {
    const roles = new Map<string, number>();
    const body = records(tuples, roles);
    return `${JSON.stringify({ ...meta, roles: [...roles.keys()] })}\n${body}`;
  }

  return { snapshot, records };
}

export type Wire = ReturnType<typeof createWire>;
