import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  RawSnapshot,
  ResolvedNode,
  TargetQuery,
  WindowDriver,
} from '../../../transports/contract/window-driver.js';
import type { Session } from '../../sessions/session.js';
import { windowActions } from '../../snapshot/next-actions.js';
import { similarRefs, type Wanted } from '../../snapshot/similar.js';
import { OCR_READ_TIMEOUT_DEFAULT_MS, readWindowText } from '../../vision/window-text.js';
import { withCandidateRefs } from '../ambiguous-target.js';
import { type ResolvedBy, weakest } from './confidence.js';
import { type EvaluationContext, evaluateSelector } from './evaluate.js';
import { type OcrTarget, OcrText, ocrTarget, usesOcr } from './ocr-text.js';
import type { Compound, Selector } from './parser.js';
import type { SelectorNode } from './selector-node.js';

/** Candidates named in AMBIGUOUS_TARGET: the transports' own listing bound. */
const AMBIGUITY_LISTING = 10;
/** Elements carrying one test id that a `testId=` predicate looks up; more is a page bug, not a target. */
const TEST_ID_LOOKUPS = 50;

export interface QueryResolution {
  /** The element as a `key` target: what the transport is handed. */
  readonly query: TargetQuery;
  readonly located: ResolvedNode;
  readonly resolvedBy: ResolvedBy;
  /** For words matched by `ocr:`: the words, and the point in `located` where an action lands. */
  readonly ocr?: OcrTarget;
}

export interface QueryTarget {
  readonly session: Session;
  readonly windowId: string;
  readonly driver: WindowDriver;
  readonly selector: Selector;
  readonly nth?: number | null;
  readonly timeoutMs: number;
}

/**
 * Resolves a query selector over the window's snapshot, in the domain, so it means the same on every
 * transport. Nothing matching is waited for the way other targets are — the window is read again on each
 * change it reports, until the timeout (SELECTOR_NO_MATCH, with the nearest candidates); several matches
 * without `nth` are AMBIGUOUS_TARGET at once, each candidate named by ref.
 */
export async function resolveQueryTarget(target: QueryTarget): Promise<QueryResolution> {
  const { driver, selector, timeoutMs } = target;
  const deadline = Date.now() + timeoutMs;
  const ocr = usesOcr(selector);
  const bounds = ocr || needsBounds(selector);
  // The change count is taken before each read, so a change landing during the read is not missed.
  let seen = await driver.nextChange(null, 0);
  for (;;) {
    const actionsBefore = target.session.snapshots.actions.mark;
    const raw = await driver.snapshot({ bounds });
    const context = { testIdKeys: await testIdKeys(driver, selector, raw.documentId) };
    // Structure first: the screen is read only when nothing else of the selector matched.
    const found =
      pick(target, raw, context) ??
      (ocr ? pick(target, raw, { ...context, ocr: await readOcrText(target, raw) }) : null);
    if (found) return found;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw await noMatch(target, raw, bounds, actionsBefore);
    seen = await driver.nextChange(seen, remaining);
  }
}

/** The one element the selector names in this read; null when it names none (yet). */
function pick(target: QueryTarget, raw: RawSnapshot, context: EvaluationContext): QueryResolution | null {
  const { session, windowId, selector } = target;
  const evaluation = evaluateSelector(selector, raw.nodes as readonly SelectorNode[], context);
  if (evaluation.outcome === 'none') return null;
  if (evaluation.outcome === 'ambiguous') {
    throw ambiguous(target, raw.documentId, evaluation.nodes, `${evaluation.part} of`);
  }
  const { nodes, alternative } = evaluation;
  const nth = target.nth ?? null;
  if (nth === null && nodes.length > 1) throw ambiguous(target, raw.documentId, nodes, '');
  const node = nodes[nth ?? 0];
  if (!node) return null;
  if (node.ocr) return pickOcr(target, raw, node, alternative);
  const located: ResolvedNode = { documentId: raw.documentId, node };
  const ref = session.snapshots.refFor(windowId, located);
  // A position among several is weaker evidence than anything the predicates said.
  const positional = nodes.length > 1;
  const resolvedBy: ResolvedBy = {
    strategy: positional ? 'NTH' : evaluation.strategy,
    confidence: positional ? weakest(evaluation.confidence, 'SPATIAL') : evaluation.confidence,
    alternative,
  };
  return {
    query: { spec: { kind: 'key', key: node.key, ref, documentId: raw.documentId } },
    located,
    resolvedBy,
  };
}

/**
 * Words matched by `ocr:` are acted on through the element whose box holds them, at their centre: its key
 * is what the transport is handed, the offset is the action's position. Whatever decided among several,
 * the evidence is the pixels: strategy and confidence stay OCR, the weakest there is.
 */
function pickOcr(
  target: QueryTarget,
  raw: RawSnapshot,
  node: SelectorNode,
  alternative: number,
): QueryResolution {
  const holder = raw.nodes.find((candidate) => candidate.key === node.parent) ?? raw.nodes[0]!;
  const located: ResolvedNode = { documentId: raw.documentId, node: holder };
  const ref = target.session.snapshots.refFor(target.windowId, located);
  return {
    query: { spec: { kind: 'key', key: holder.key, ref, documentId: raw.documentId } },
    located,
    resolvedBy: { strategy: 'OCR', confidence: 'OCR', alternative },
    ocr: ocrTarget(node, holder),
  };
}

/** The window's words, read from its pixels (cached per image), matched over this snapshot's boxes. */
async function readOcrText(target: QueryTarget, raw: RawSnapshot): Promise<OcrText> {
  const { session, windowId, driver } = target;
  const text = await readWindowText(session, windowId, driver, OCR_READ_TIMEOUT_DEFAULT_MS);
  return new OcrText(text.words, raw.nodes);
}

function ambiguous(
  target: QueryTarget,
  documentId: string,
  nodes: readonly SelectorNode[],
  part: string,
): unknown {
  const { session, windowId, selector } = target;
  const what = part ? `${part} the query ${selector.source}` : `the query ${selector.source}`;
  // Words on the screen have no ref to offer: they are listed by text and box.
  if (nodes[0]?.ocr)
    return new StagegraphError(
      'AMBIGUOUS_TARGET',
      `${nodes.length} places on the screen match ${what}; give \`nth\` (reading order) or scope it (\`A >> ocr:…\`).`,
      {
        details: {
          count: nodes.length,
          candidates: nodes.slice(0, AMBIGUITY_LISTING).map((node) => ({ text: node.name, bbox: node.bbox })),
          target: { kind: 'query', query: selector.source },
        },
      },
    );
  const error = new StagegraphError(
    'AMBIGUOUS_TARGET',
    `${nodes.length} elements match ${what}; give \`nth\`, narrow it (\`A >> B\`, a relation) or use a ref.`,
    {
      details: {
        count: nodes.length,
        documentId,
        candidates: nodes.slice(0, AMBIGUITY_LISTING).map((node) => ({ node, testId: null })),
        target: { kind: 'query', query: selector.source },
      },
    },
  );
  return withCandidateRefs(error, session, windowId);
}

async function noMatch(
  target: QueryTarget,
  raw: RawSnapshot,
  bounds: boolean,
  actionsBefore: number,
): Promise<StagegraphError> {
  const { session, windowId, selector, timeoutMs } = target;
  const fresh = await session.snapshots.record(windowId, raw, { bounds }, actionsBefore);
  return new StagegraphError(
    'SELECTOR_NO_MATCH',
    `Nothing matched the query ${selector.source} within ${timeoutMs} ms.`,
    {
      hint: 'Check the query against a fresh snapshot; `similarRefs` lists near candidates by role and name.',
      similarRefs: similarRefs(wantedBy(selector), fresh),
      nextActions: [windowActions.interactive({ sessionId: session.id, windowId })],
      details: { target: { kind: 'query', query: selector.source } },
    },
  );
}

/** The role and name the first alternative's final step asks for: what near misses are ranked against. */
function wantedBy(selector: Selector): Wanted {
  const steps = selector.alternatives[0]!.steps;
  const subject: Compound = steps[steps.length - 1]!.subject;
  let wanted: { role?: string; name?: string } = {};
  for (const predicate of subject.predicates) {
    if (predicate.key === 'role') wanted = { ...wanted, role: predicate.value };
    if (predicate.key === 'name' || predicate.key === 'text') wanted = { ...wanted, name: predicate.value };
  }
  return wanted;
}

/** Boxes cost a third of a large page's walk; only `visible=` and relations read them. */
function needsBounds(selector: Selector): boolean {
  return selector.alternatives.some((chain) =>
    chain.steps.some(
      (step) => step.relation !== undefined || step.subject.predicates.some((p) => p.key === 'visible'),
    ),
  );
}

/**
 * Test ids are not in the snapshot: each one the selector names is looked up through the transport's own
 * `testId` target (every match, by position) and kept as keys of this document, to intersect with the
 * snapshot's nodes. A transport without test ids matches none.
 */
async function testIdKeys(
  driver: WindowDriver,
  selector: Selector,
  documentId: string,
): Promise<Map<string, Set<number>>> {
  const wanted = new Set<string>();
  for (const chain of selector.alternatives) {
    for (const step of chain.steps) {
      for (const compound of step.relation ? [step.subject, step.relation.anchor] : [step.subject]) {
        for (const p of compound.predicates) if (p.key === 'testId') wanted.add(p.value);
      }
    }
  }
  const entries = await Promise.all(
    [...wanted].map(async (testId) => {
      const spec = { kind: 'testId', testId } as const;
      const [count = 0] = await driver.countMatches([{ spec }]);
      const picks = Array.from({ length: Math.min(count, TEST_ID_LOOKUPS) }, (_, nth) =>
        driver.locate({ spec, nth }, 0).catch(() => null),
      );
      const keys = new Set<number>();
      for (const found of await Promise.all(picks)) {
        if (found && found.documentId === documentId) keys.add(found.node.key);
      }
      return [testId, keys] as const;
    }),
  );
  return new Map(entries);
}
