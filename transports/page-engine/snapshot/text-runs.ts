/// <reference lib="dom" />
import type { Frame } from './geometry.js';
import type { Registry } from './key-registry.js';
import type { Layout } from './layout.js';

/** A stretch of text the walker emits as one `text` node, with the union of its text nodes' boxes. */
export interface Run {
  key: number;
  parent: number;
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What of a walk the text runs read and write. */
export interface RunWalk {
  readonly out: unknown[];
  readonly bounds: boolean;
  readonly range: Range;
  run: Run | null;
}

/**
 * In-page: the walker's text runs. Text under one emitted node merges across inline elements into one
 * run, set apart by a space at an inline-block's edges; a block ends the run (a line break). A
 * self-contained factory: its source is shipped into the page whole.
 */
export function createTextRuns(registry: Registry, layout: Layout) {
  const NO_RECT = { left: 0, top: 0, width: 0, height: 0 };

  function measure(range: Range, node: Text) {
    range.selectNodeContents(node);
    return range.getBoundingClientRect();
  }

  function flush(walk: RunWalk): void {
    const run = walk.run;
    if (!run) return;
    walk.run = null;
    const text = run.text.replace(/\s+/g, ' ').trim();
    if (!text) return;
    const tuple: unknown[] = [run.key, run.parent, 'text', text, 0, 0];
    if (run.right > run.left || run.bottom > run.top)
      tuple.push(
        Math.round(run.left),
        Math.round(run.top),
        Math.round(run.right - run.left),
        Math.round(run.bottom - run.top),
      );
    walk.out.push(tuple);
  }

  function addText(node: Text, parent: number, walk: RunWalk, frame: Frame): void {
    const data = node.data;
    const run = walk.run;
    const blank = !/\S/.test(data);
    if (blank) {
      if (run && run.parent === parent) run.text += ' ';
      return;
    }
    const rect = walk.bounds ? measure(walk.range, node) : NO_RECT;
    const left = rect.left + frame.x;
    const top = rect.top + frame.y;
    const empty = rect.width === 0 && rect.height === 0;
    if (run && run.parent === parent) {
      run.text += data;
      if (!empty) {
        if (run.right <= run.left && run.bottom <= run.top) {
          run.left = left;
          run.top = top;
          run.right = left + rect.width;
          run.bottom = top + rect.height;
        } else {
          run.left = Math.min(run.left, left);
          run.top = Math.min(run.top, top);
          run.right = Math.max(run.right, left + rect.width);
          run.bottom = Math.max(run.bottom, top + rect.height);
        }
      }
      return;
    }
    flush(walk);
    walk.run = {
      key: registry.keyOf(node),
      parent,
      text: data,
      left,
      top,
      right: empty ? left : left + rect.width,
      bottom: empty ? top : top + rect.height,
    };
  }

  function breakRun(flow: number, walk: RunWalk): void {
    if (flow === layout.BLOCK) flush(walk);
    else if (flow === layout.ATOMIC && walk.run) walk.run.text += ' ';
  }

  return { addText, flush, breakRun, flowOf: layout.textFlowOf };
}

export type TextRuns = ReturnType<typeof createTextRuns>;
