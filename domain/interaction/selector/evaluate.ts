import { type Confidence, compoundEvidence, type Strategy, weakest } from './confidence.js';
import type { OcrText } from './ocr-text.js';
import type { Chain, Compound, Predicate, Selector, Step } from './parser.js';
import type { SelectorNode } from './selector-node.js';
import { nearest, rankByRelation } from './spatial.js';

/** What the snapshot cannot say and the transport can: the keys of the elements carrying each test id. */
export interface EvaluationContext {
  readonly testIdKeys: ReadonlyMap<string, ReadonlySet<number>>;
  /** The window's words read from its pixels, once a step needed them; `ocr:` matches nothing without. */
  readonly ocr?: OcrText;
}

export type Evaluation =
  | {
      readonly outcome: 'match';
      /** Every element the final step picked, in document order (nearest first after a relation). */
      readonly nodes: readonly SelectorNode[];
      readonly alternative: number;
      /** The evidence for the match, when `nodes` holds exactly one. */
      readonly strategy: Strategy;
      readonly confidence: Confidence;
    }
  | { readonly outcome: 'none' }
  | {
      /** A step before the last (`A` of `A >> B`) or an anchor matched several: which one is unclear. */
      readonly outcome: 'ambiguous';
      readonly nodes: readonly SelectorNode[];
      readonly alternative: number;
      readonly part: string;
    };

/**
 * Evaluates a selector over one snapshot's nodes (pre-order, as the walker gives them). The alternatives
 * of `??` are tried in order, the next only when one matches nothing; an ambiguous scope or anchor ends
 * the search, since falling back past it would act on something the agent did not rank first.
 */
export function evaluateSelector(
  selector: Selector,
  nodes: readonly SelectorNode[],
  context: EvaluationContext,
): Evaluation {
  const tree = new Tree(nodes);
  for (const [index, chain] of selector.alternatives.entries()) {
    const result = evaluateChain(chain, index, tree, context);
    if (result.outcome !== 'none') return result;
  }
  return { outcome: 'none' };
}

function evaluateChain(
  chain: Chain,
  alternative: number,
  tree: Tree,
  context: EvaluationContext,
): Evaluation {
  let scope: readonly SelectorNode[] = tree.nodes;
  /** The element a `>>` scoped the search to: an OCR step reads words inside its box. */
  let scopeRoot: SelectorNode | null = null;
  let scopeConfidence: Confidence = 'STABLE_ID';
  const last = chain.steps.length - 1;
  for (const [index, step] of chain.steps.entries()) {
    const picked = evaluateStep(step, scope, scopeRoot, tree, context);
    if (picked.outcome === 'ambiguous') return { ...picked, alternative };
    if (picked.nodes.length === 0) return { outcome: 'none' };
    if (index < last) {
      if (picked.nodes.length > 1) {
        return {
          outcome: 'ambiguous',
          nodes: picked.nodes,
          alternative,
          part: `step ${index + 1} (before >>)`,
        };
      }
      scopeConfidence = weakest(scopeConfidence, picked.confidence);
      scopeRoot = picked.nodes[0]!;
      scope = tree.descendants(scopeRoot);
      continue;
    }
    // A last step unique in the whole window did not need its scope; otherwise the scope is evidence too.
    const standsAlone =
      index === 0 || (!step.relation && matchCompound(step.subject, tree.nodes, context).length === 1);
    return {
      outcome: 'match',
      nodes: picked.nodes,
      alternative,
      strategy: picked.strategy,
      confidence: standsAlone ? picked.confidence : weakest(scopeConfidence, picked.confidence),
    };
  }
  return { outcome: 'none' };
}

type StepResult =
  | { outcome: 'picked'; nodes: readonly SelectorNode[]; strategy: Strategy; confidence: Confidence }
  | { outcome: 'ambiguous'; nodes: readonly SelectorNode[]; part: string };

/**
 * One step: its compound within the scope, then, with a relation, only the candidates nearest the anchor
 * (searched in the whole window: a label is rarely inside the container of the control it labels). The
 * relation is the evidence only when it decided: a subject unique on its own keeps its own confidence.
 */
function evaluateStep(
  step: Step,
  scope: readonly SelectorNode[],
  scopeRoot: SelectorNode | null,
  tree: Tree,
  context: EvaluationContext,
): StepResult {
  const own = matchCompound(step.subject, scope, context, scopeRoot);
  const evidence = compoundEvidence(step.subject);
  if (!step.relation) return { outcome: 'picked', nodes: own, ...evidence };
  const anchors = matchCompound(step.relation.anchor, tree.nodes, context);
  if (anchors.length > 1) {
    return { outcome: 'ambiguous', nodes: anchors, part: `the anchor of ${step.relation.kind}` };
  }
  const anchor = anchors[0];
  if (!anchor?.bbox) return { outcome: 'picked', nodes: [], ...evidence };
  const related = tree.related(anchor);
  const candidates = own.filter((node) => !related.has(node.key));
  const picked = nearest(rankByRelation(step.relation.kind, candidates, anchor.bbox));
  const decided = !(own.length === 1 && picked.length === 1 && picked[0] === own[0]);
  return decided
    ? { outcome: 'picked', nodes: picked, strategy: 'SPATIAL', confidence: 'SPATIAL' }
    : { outcome: 'picked', nodes: picked, ...evidence };
}

/**
 * The nodes meeting every predicate, in document order. A run of text inside an element that matched too
 * is that element's own text, not a second match.
 */
export function matchCompound(
  compound: Compound,
  nodes: readonly SelectorNode[],
  context: EvaluationContext,
  scopeRoot: SelectorNode | null = null,
): SelectorNode[] {
  const ocr = compound.predicates[0]?.key === 'ocr' ? compound.predicates[0] : null;
  if (ocr) return context.ocr?.match(ocr.value, ocr.contains, scopeRoot) ?? [];
  const matched = nodes.filter((node) => compound.predicates.every((p) => holds(p, node, context)));
  const keys = new Set(matched.map((node) => node.key));
  return matched.filter((node) => !(node.role === 'text' && node.parent !== null && keys.has(node.parent)));
}

function holds(predicate: Predicate, node: SelectorNode, context: EvaluationContext): boolean {
  switch (predicate.key) {
    case 'role':
      return node.role.toLowerCase() === predicate.value.toLowerCase();
    case 'name':
      return textMatches(node.name, predicate.value, predicate.contains);
    case 'text':
      return [node.name, node.value ?? ''].some((text) =>
        textMatches(text, predicate.value, predicate.contains),
      );
    case 'enabled':
      return !node.states.includes('DISABLED') === predicate.value;
    case 'visible':
      return (node.bbox !== undefined && node.bbox.width > 0 && node.bbox.height > 0) === predicate.value;
    case 'testId':
      return context.testIdKeys.get(predicate.value)?.has(node.key) ?? false;
    case 'atspiPath':
      return node.atspiPath === predicate.value;
    case 'ocr':
      return false;
  }
}

/** Exact: the whole name, spaces at its ends aside, case-sensitive. Contains: anywhere, any case. */
function textMatches(text: string, wanted: string, contains: boolean): boolean {
  return contains ? text.toLowerCase().includes(wanted.toLowerCase()) : text.trim() === wanted.trim();
}

/** The snapshot's parent links, walked both ways. */
class Tree {
  readonly nodes: readonly SelectorNode[];
  readonly #byKey = new Map<number, SelectorNode>();
  readonly #children = new Map<number, SelectorNode[]>();

  constructor(nodes: readonly SelectorNode[]) {
    this.nodes = nodes;
    for (const node of nodes) {
      this.#byKey.set(node.key, node);
      if (node.parent === null) continue;
      const siblings = this.#children.get(node.parent);
      if (siblings) siblings.push(node);
      else this.#children.set(node.parent, [node]);
    }
  }

  /** The node's subtree without the node itself, in document order. */
  descendants(root: SelectorNode): SelectorNode[] {
    const inside = new Set<number>();
    const pending = [root.key];
    while (pending.length > 0) {
      for (const child of this.#children.get(pending.pop()!) ?? []) {
        inside.add(child.key);
        pending.push(child.key);
      }
    }
    return this.nodes.filter((node) => inside.has(node.key));
  }

  /** The node, its ancestors and its descendants: boxes that contain or are contained are not beside it. */
  related(node: SelectorNode): Set<number> {
    const keys = new Set([node.key, ...this.descendants(node).map((n) => n.key)]);
    for (let at = node.parent; at !== null; at = this.#byKey.get(at)?.parent ?? null) keys.add(at);
    return keys;
  }
}
