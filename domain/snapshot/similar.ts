import type { SimilarRef } from '../../errors/stagegraph-error.js';
import type { Snapshot } from './snapshot.js';

/** Candidates offered at most: enough to cover a near-miss, few enough to read in an error. */
export const MAX_SIMILAR = 5;

/** Below this a candidate is noise (two unrelated names share a bigram or two by chance). */
export const MIN_SIMILARITY = 0.3;

/**
 * What a candidate of another role keeps of its name score. Name similarity drives the ranking and the role
 * scales it: an agent that wanted button "Save" is well served by link "Save", and not at all by button
 * "Cancel" (an additive role bonus would rank "Cancel" first).
 */
const OTHER_ROLE_FACTOR = 0.7;

/** Names longer than this are compared by their start: a 10 KB paragraph is not what a ref was. */
const MAX_COMPARED_NAME = 200;

/**
 * A one-word name is also compared with each of a candidate's first words by edit distance with adjacent
 * transpositions: "Svae" shares no bigram with "Save", yet it is the commonest typo there is. Words longer
 * than this, or past the first few of a name, are left to the bigrams (the distance is quadratic in length).
 */
const MAX_TYPO_WORD = 24;
const MAX_TYPO_WORDS = 8;
/** A near-miss of one word scores below a near-miss of the whole name. */
const WORD_MATCH_FACTOR = 0.8;

export interface Wanted {
  readonly role?: string | null;
  readonly name?: string | null;
}

/**
 * The nodes of `snapshot` nearest to `wanted`, best first (ties: interactive nodes, then document order).
 * With a role alone, every node of that role scores 1 and the first few are offered.
 *
 * Names are compared by the Sørensen–Dice coefficient over character bigrams of the normalized names. It
 * forgives typos ("Delet" ~ "Delete"), case, and reordered or extra words ("Save draft" ~ "Draft: save"),
 * which token overlap alone misses for typos and edit distance misses for reordering; and it is linear in
 * the name's length, where edit distance is quadratic — this scan runs over every node of a 50,000-node
 * snapshot on an error path.
 */
export function similarRefs(wanted: Wanted, snapshot: Snapshot, exclude?: string): SimilarRef[] {
  const role = wanted.role || null;
  const wantedText = wanted.name ? normalize(wanted.name) : '';
  const wantedName = wanted.name ? bigrams(wantedText) : null;
  const wantedWord = /^\S{3,}$/.test(wantedText) && wantedText.length <= MAX_TYPO_WORD ? wantedText : null;
  if (role === null && wantedName === null) return [];
  const best: { candidate: SimilarRef; interactive: boolean }[] = [];
  for (const node of snapshot.nodes) {
    if (node.ref === exclude) continue;
    const roleFactor = role === null || node.role === role ? 1 : OTHER_ROLE_FACTOR;
    const name = normalize(node.name);
    const nameScore =
      wantedName === null
        ? node.role === role
          ? 1
          : 0
        : Math.max(dice(wantedName, bigrams(name)), wantedWord ? wordTypoScore(wantedWord, name) : 0);
    const score = roleFactor * nameScore;
    if (score < MIN_SIMILARITY) continue;
    insertRanked(best, {
      candidate: { ref: node.ref, role: node.role, name: node.name, score },
      interactive: node.interactive,
    });
  }
  return best.map(({ candidate }) => ({ ...candidate, score: Math.round(candidate.score * 1000) / 1000 }));
}

/** Keeps the top MAX_SIMILAR in a small sorted array: O(nodes × MAX_SIMILAR), no full sort. */
function insertRanked(
  best: { candidate: SimilarRef; interactive: boolean }[],
  entry: { candidate: SimilarRef; interactive: boolean },
): void {
  const beats = (a: typeof entry, b: typeof entry) =>
    a.candidate.score > b.candidate.score ||
    (a.candidate.score === b.candidate.score && a.interactive && !b.interactive);
  let at = best.length;
  while (at > 0 && beats(entry, best[at - 1]!)) at -= 1;
  if (at >= MAX_SIMILAR) return;
  best.splice(at, 0, entry);
  if (best.length > MAX_SIMILAR) best.pop();
}

function normalize(name: string): string {
  return name.slice(0, MAX_COMPARED_NAME).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Multiset of adjacent character pairs; a one-character name is its own single "bigram". */
function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (text.length === 1) counts.set(text, 1);
  for (let i = 0; i + 1 < text.length; i += 1) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const count of a.values()) sizeA += count;
  for (const [pair, count] of b) {
    sizeB += count;
    shared += Math.min(count, a.get(pair) ?? 0);
  }
  if (sizeA === 0 && sizeB === 0) return 1;
  return (2 * shared) / (sizeA + sizeB);
}

/** How near `word` is to the nearest of the name's first words: one edit or swap in a word of four scores 0.6. */
function wordTypoScore(word: string, name: string): number {
  let best = 0;
  for (const candidate of name.split(' ', MAX_TYPO_WORDS)) {
    if (Math.abs(candidate.length - word.length) > 1 || candidate.length > MAX_TYPO_WORD) continue;
    const distance = editDistance(word, candidate);
    if (distance > 1 + Math.floor(word.length / 6)) continue;
    best = Math.max(best, (1 - distance / Math.max(word.length, candidate.length)) * WORD_MATCH_FACTOR);
  }
  return best;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions); both words are short. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = a[i - 1] === b[j - 1] ? 0 : 1;
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, before[j - 2]! + 1);
      current.push(cost);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
