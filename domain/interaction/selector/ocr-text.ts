import type { Bounds } from '../../../transports/contract/bounds.js';
import type { RawNode } from '../../../transports/contract/window-driver.js';
import { type OcrWord, union } from '../../vision/tsv.js';
import { centreInside, containingNode } from '../../vision/window-text.js';
import type { Selector } from './parser.js';
import type { SelectorNode } from './selector-node.js';

/**
 * Where an action on an OCR target lands: the element whose box holds the words (a canvas, a drawing
 * area), at the words' centre as an offset into that element's box — a click through the transport's own
 * pointer path, at a point the policy and the approver were shown.
 */
export interface OcrTarget {
  readonly text: string;
  readonly bbox: Bounds;
  readonly position: { readonly x: number; readonly y: number };
}

/** What an OCR node is shown as where a role is asked for (ambiguity lists, the policy's target role). */
export const OCR_ROLE = 'ocr text';

/**
 * A window's words as `ocr:` steps match them. Exact matching finds a run of consecutive words of one line
 * equal to the value, word for word (case-sensitive, as `name=`); contains matching finds words holding the
 * value in any case, or, for a value of several words, lines holding it. Each match becomes a node
 * parented to the element its box falls in, so `>>`, relations and `nth` treat it as any other.
 */
export class OcrText {
  readonly #lines: OcrWord[][] = [];
  readonly #nodes: readonly RawNode[];
  #nextKey = -1;

  constructor(words: readonly OcrWord[], nodes: readonly RawNode[]) {
    for (const word of words) {
      const line = this.#lines[word.line] ?? [];
      line.push(word);
      this.#lines[word.line] = line;
    }
    this.#nodes = nodes;
  }

  /** The matches in reading order; inside `scopeRoot`'s box only, when a `>>` scoped the step. */
  match(value: string, contains: boolean, scopeRoot: SelectorNode | null): SelectorNode[] {
    const wanted = value.trim().split(/\s+/);
    const runs = contains ? this.#containing(wanted) : this.#equal(wanted);
    const area = scopeRoot ? (scopeRoot.bbox ?? null) : undefined;
    if (area === null) return [];
    return runs.filter((run) => !area || centreInside(box(run), area)).map((run) => this.#node(run));
  }

  #equal(wanted: readonly string[]): OcrWord[][] {
    const runs: OcrWord[][] = [];
    for (const line of this.#lines) {
      if (!line) continue;
      for (let start = 0; start + wanted.length <= line.length; start += 1) {
        const run = line.slice(start, start + wanted.length);
        if (run.every((word, i) => word.text === wanted[i])) runs.push(run);
      }
    }
    return runs;
  }

  #containing(wanted: readonly string[]): OcrWord[][] {
    const needle = wanted.join(' ').toLowerCase();
    const lines = this.#lines.filter((line): line is OcrWord[] => line !== undefined);
    if (wanted.length > 1)
      return lines.filter((line) =>
        line
          .map((w) => w.text)
          .join(' ')
          .toLowerCase()
          .includes(needle),
      );
    return lines.flatMap((line) => line.filter((w) => w.text.toLowerCase().includes(needle)).map((w) => [w]));
  }

  #node(run: readonly OcrWord[]): SelectorNode {
    const bbox = box(run);
    const text = run.map((word) => word.text).join(' ');
    const confidence = run.reduce((sum, word) => sum + word.confidence, 0) / run.length;
    const key = this.#nextKey;
    this.#nextKey -= 1;
    return {
      key,
      parent: containingNode(bbox, this.#nodes)?.key ?? null,
      role: OCR_ROLE,
      name: text,
      states: [],
      bbox,
      interactive: false,
      ocr: { text, confidence },
    };
  }
}

/** Where an action on the matched words lands, relative to the element holding them (or the window). */
export function ocrTarget(node: SelectorNode, holder: RawNode | null): OcrTarget {
  const bbox = node.bbox!;
  const origin = holder?.bbox ?? { x: 0, y: 0 };
  return {
    text: node.name,
    bbox,
    position: {
      x: Math.round(bbox.x + bbox.width / 2 - origin.x),
      y: Math.round(bbox.y + bbox.height / 2 - origin.y),
    },
  };
}

/** Whether any step of any alternative reads the screen: only then is the engine ever run. */
export function usesOcr(selector: Selector): boolean {
  return selector.alternatives.some((chain) =>
    chain.steps.some((step) =>
      [step.subject, ...(step.relation ? [step.relation.anchor] : [])].some((compound) =>
        compound.predicates.some((p) => p.key === 'ocr'),
      ),
    ),
  );
}

function box(run: readonly OcrWord[]): Bounds {
  return union(run.map((word) => word.bbox));
}
