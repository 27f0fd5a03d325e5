import type { TargetRequest } from '../target-input.js';
import type { Compound, Selector } from './parser.js';

/**
 * How much to trust that a target names the element the agent meant, strongest first: a unique stable id
 * (a test id, an AT-SPI path, a ref read from a snapshot) beats a unique role + exact name, which beats
 * text (a name that merely contains the words, a role alone, a CSS structure), which beats a position
 * (a spatial relation or an `nth` that decided between several), which beats words read by OCR from the
 * window's pixels (the vision tier: nothing in any tree says what they are).
 */
export const CONFIDENCES = ['STABLE_ID', 'ROLE_NAME', 'TEXT', 'SPATIAL', 'OCR'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** What decided the match: the strongest evidence of the step that picked the element. */
export const STRATEGIES = [
  'REF',
  'TEST_ID',
  'ATSPI_PATH',
  'ROLE_NAME',
  'TEXT',
  'ROLE',
  'CSS',
  'SPATIAL',
  'NTH',
  'OCR',
] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** How a target was found, as an action reports it and a policy rule matches it. */
export interface ResolvedBy {
  readonly strategy: Strategy;
  readonly confidence: Confidence;
  /** For a `query` target with `??`: which alternative matched (0 for the first). */
  readonly alternative?: number;
}

const RANK: Readonly<Record<Confidence, number>> = {
  STABLE_ID: 0,
  ROLE_NAME: 1,
  TEXT: 2,
  SPATIAL: 3,
  OCR: 4,
};

/** The less trustworthy of two confidences. */
export function weakest(a: Confidence, b: Confidence): Confidence {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `a` is at least as trustworthy as `b`. */
export function atLeast(a: Confidence, b: Confidence): boolean {
  return RANK[a] <= RANK[b];
}

/** What one compound's own predicates say about the element it names, when it names exactly one. */
export function compoundEvidence(compound: Compound): { strategy: Strategy; confidence: Confidence } {
  const keys = compound.predicates.map((p) => p.key);
  if (keys.includes('ocr')) return { strategy: 'OCR', confidence: 'OCR' };
  if (keys.includes('testId')) return { strategy: 'TEST_ID', confidence: 'STABLE_ID' };
  if (keys.includes('atspiPath')) return { strategy: 'ATSPI_PATH', confidence: 'STABLE_ID' };
  const exactName = compound.predicates.some((p) => (p.key === 'name' || p.key === 'text') && !p.contains);
  if (exactName) return { strategy: 'ROLE_NAME', confidence: 'ROLE_NAME' };
  const contains = compound.predicates.some((p) => p.key === 'name' || p.key === 'text');
  return { strategy: contains ? 'TEXT' : 'ROLE', confidence: 'TEXT' };
}

/**
 * The best a selector can earn before it is evaluated: each alternative's weakest step, a relation counted
 * as spatial; the weakest alternative wins, since any of them may be the one that matches. What a policy
 * is shown for a query target its preview could not resolve.
 */
export function staticConfidence(selector: Selector): Confidence {
  let result: Confidence = 'STABLE_ID';
  for (const chain of selector.alternatives) {
    for (const step of chain.steps) {
      const own = step.relation ? 'SPATIAL' : compoundEvidence(step.subject).confidence;
      result = weakest(result, own);
    }
  }
  return result;
}

/**
 * How a classic target (ref, testId, role, text, CSS selector) is found: it names its element directly,
 * so its kind is its evidence; an `nth` that picks among several is positional.
 */
export function classicResolution(request: TargetRequest): ResolvedBy {
  const own = classicEvidence(request);
  if (request.nth != null) return { strategy: 'NTH', confidence: weakest(own.confidence, 'SPATIAL') };
  return own;
}

function classicEvidence(request: TargetRequest): ResolvedBy {
  if (request.ref) return { strategy: 'REF', confidence: 'STABLE_ID' };
  if (request.testId) return { strategy: 'TEST_ID', confidence: 'STABLE_ID' };
  if (request.role && request.name != null && request.exact !== false) {
    return { strategy: 'ROLE_NAME', confidence: 'ROLE_NAME' };
  }
  if (request.role && request.name == null) return { strategy: 'ROLE', confidence: 'TEXT' };
  if (request.selector) return { strategy: 'CSS', confidence: 'TEXT' };
  return { strategy: 'TEXT', confidence: 'TEXT' };
}
