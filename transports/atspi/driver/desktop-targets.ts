import { StagegraphError } from '../../../errors/stagegraph-error.js';
import {
  type AmbiguityDetails,
  describeSpec,
  type TargetQuery,
  type TargetSpec,
} from '../../contract/window-driver.js';
import type { AtspiBus } from '../bus/atspi-bus.js';
import { namedFromContent } from '../tree/atspi-roles.js';
import { hasState } from '../tree/atspi-states.js';
import { rawNode } from '../tree/desktop-snapshot.js';
import type { KeyTable } from '../tree/key-table.js';
import type { TreeNode, WindowTree } from '../tree/tree-read.js';

/** Candidates named in an AMBIGUOUS_TARGET error, as the page engine lists them (ambiguity.ts). */
const AMBIGUITY_LISTING = 10;
/** Roles whose name is text the window shows, so a text target finds them (Playwright's getByText). */
const TEXT_ROLES = new Set(['text', 'paragraph', 'heading', 'caption', 'status']);

/** What resolving a target needs of the driver: fresh reads of its window, and a wait for its next change. */
export interface WindowReads {
  readonly bus: AtspiBus;
  readonly keys: KeyTable;
  readonly documentId: string;
  readonly secrets: ReadonlySet<number>;
  read(): Promise<WindowTree>;
  accessibleIds(nodes: readonly TreeNode[]): Promise<string[]>;
  changes(): number;
  nextChange(after: number, timeoutMs: number): Promise<number>;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Exact: the whole text, whitespace runs as one space, case-sensitive — a role's name by default, as on a
 * page and as the query language's `name=`; otherwise a part of it in any case (`exact: false`, `name~=`).
 */
function textMatches(actual: string, wanted: string, exact: boolean | undefined): boolean {
  const have = normalise(actual);
  const want = normalise(wanted);
  return exact ? have === want : have.toLowerCase().includes(want.toLowerCase());
}

function descendants(scope: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (node: TreeNode) => {
    for (const child of node.children) {
      out.push(child);
      visit(child);
    }
  };
  visit(scope);
  return out;
}

/** The objects a target matches in one read of the window, in document order; [] for none. */
export async function matchesOf(
  reads: WindowReads,
  tree: WindowTree,
  query: TargetQuery,
): Promise<TreeNode[]> {
  const { spec } = query;
  if (spec.kind === 'selector') {
    throw new StagegraphError(
      'BAD_INPUT',
      `A desktop window has no DOM for ${describeSpec(spec)}: target it by role and name, text, test id (its accessible id) or ref.`,
    );
  }
  let scope = tree.root;
  if (query.within) {
    const [within] = await exactlyOne(reads, tree, query.within);
    if (!within) return [];
    scope = within;
  }
  let found: TreeNode[];
  switch (spec.kind) {
    case 'key': {
      if (spec.documentId !== reads.documentId) throw staleKey(spec.ref);
      const node = tree.byKey.get(spec.key);
      found = node && (node === scope || descendants(scope).includes(node)) ? [node] : [];
      if (found.length === 0 && !(await alive(reads, spec.key))) throw staleKey(spec.ref);
      break;
    }
    case 'role':
      found = descendants(scope).filter(
        (node) =>
          node.role === spec.role &&
          (spec.name === undefined || textMatches(node.name, spec.name, spec.exact ?? true)),
      );
      break;
    case 'text':
      found = descendants(scope).filter(
        (node) =>
          !node.covered &&
          (TEXT_ROLES.has(node.role) || namedFromContent(node.role)) &&
          node.name !== '' &&
          textMatches(node.name, spec.text, spec.exact),
      );
      break;
    case 'testId': {
      const candidates = descendants(scope);
      const ids = await reads.accessibleIds(candidates);
      found = candidates.filter((_, index) => ids[index] === spec.testId);
      break;
    }
  }
  if (query.nth !== undefined) return found[query.nth] ? [found[query.nth] as TreeNode] : [];
  return found;
}

/** One match, none, or AMBIGUOUS_TARGET listing the first few as the snapshot describes them. */
export async function exactlyOne(
  reads: WindowReads,
  tree: WindowTree,
  query: TargetQuery,
): Promise<TreeNode[]> {
  const found = await matchesOf(reads, tree, query);
  if (found.length > 1) throw await ambiguity(reads, found, query.spec);
  return found;
}

async function ambiguity(reads: WindowReads, found: readonly TreeNode[], spec: TargetSpec) {
  const listed = found.slice(0, AMBIGUITY_LISTING);
  const ids = await reads.accessibleIds(listed);
  const details: AmbiguityDetails = {
    count: found.length,
    documentId: reads.documentId,
    candidates: listed.map((node, index) => ({
      node: rawNode(node, node.parent?.key ?? null, {}, reads.secrets),
      testId: ids[index] || null,
    })),
  };
  const what = describeSpec(spec);
  return new StagegraphError(
    'AMBIGUOUS_TARGET',
    `${found.length} elements match ${what}; give \`nth\` or a ref.`,
    {
      details: { ...details, target: spec },
    },
  );
}

function staleKey(ref: string): StagegraphError {
  return new StagegraphError('REF_STALE', `The element of ref ${ref} is no longer in the window.`);
}

/** Whether the object a key stood for still answers and is not DEFUNCT (it may only be hidden). */
async function alive(reads: WindowReads, key: number): Promise<boolean> {
  const ref = reads.keys.refOf(key);
  if (!ref) return false;
  try {
    const [words] = await reads.bus.call(ref.busName, ref.path, 'org.a11y.atspi.Accessible', 'GetState');
    const states = words as number[];
    return !hasState([states[0] ?? 0, states[1] ?? 0], 'DEFUNCT');
  } catch {
    return false;
  }
}

/**
 * Resolves a target to exactly one object, re-reading the window on each of its changes until `timeoutMs`
 * (no polling interval). None is SELECTOR_NO_MATCH, several without `nth` AMBIGUOUS_TARGET, a ref whose
 * object left the app REF_STALE; a ref whose object lives on but is hidden is ELEMENT_NOT_VISIBLE.
 */
export async function resolveTarget(
  reads: WindowReads,
  query: TargetQuery,
  timeoutMs: number,
): Promise<{ tree: WindowTree; node: TreeNode }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = reads.changes();
    const tree = await reads.read();
    const [node] = await exactlyOne(reads, tree, query);
    if (node) return { tree, node };
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await reads.nextChange(seen, remaining);
  }
  const { spec } = query;
  if (spec.kind === 'key') {
    throw new StagegraphError(
      'ELEMENT_NOT_VISIBLE',
      `The element of ref ${spec.ref} stayed hidden for ${timeoutMs} ms.`,
    );
  }
  throw new StagegraphError('SELECTOR_NO_MATCH', `No element matches ${describeSpec(spec)}.`, {
    details: { target: spec },
  });
}
