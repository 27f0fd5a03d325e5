import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { diff } from '../domain/snapshot/diff.js';
import { RefStore } from '../domain/snapshot/ref-store.js';
import type { RawNode } from '../transports/contract/window-driver.js';
import { decodeNode, decodeWire, type NodeTuple } from '../transports/page-engine/snapshot/encoding.js';
import { ENGINE_GLOBAL } from '../transports/page-engine/snapshot/install.js';
import { snapshotDocument } from '../transports/page-engine/snapshot/page-snapshot.js';
import { useSharedPage } from './helpers/browser.js';
import { inPageCall } from './helpers/in-page.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

const ROWS = 30;
const row = (n: number) =>
  `<tr><td>${n}</td><td class="customer">Customer ${n}</td><td><span class="amount">${n * 3}.50</span> EUR</td>` +
  `<td><select aria-label="Status ${n}"><option>Open</option><option>Closed</option></select></td>` +
  `<td><button type="button">Edit</button> <a href="#o${n}">Details <b>${n}</b></a></td></tr>`;

/** A page with what the model must follow: a table, form controls, labels, references, CSS that hides. */
const PAGE = `<!doctype html><html><head><title>Model page</title><style>
  .hide { display: none } .ghost { visibility: hidden } .ghost .show { visibility: visible }
  .flag + td { display: none } .flag ~ td b { display: none }
  </style></head><body>
  <header><h1>Orders</h1><nav aria-label="Main"><a href="#a">Alpha</a> <a href="#b">Beta</a></nav></header>
  <main>
    <form aria-label="Filters">
      <label for="q">Query</label> <input id="q" type="search" value="x">
      <label><input type="checkbox" id="open"> Only open</label>
      <input type="checkbox" aria-label="Archived"> <input type="radio" name="r" aria-label="One" checked>
      <input type="radio" name="r" aria-label="Two"> <textarea aria-label="Notes">Some</textarea>
      <button type="button" aria-describedby="hint">Apply</button> <span id="hint">Applies the filters</span>
      <details><summary>More</summary><p>Hidden until open</p></details>
      <div contenteditable="true" aria-label="Memo">Memo text</div>
      <div class="box"><p>Plain <em>inline</em> text</p><div tabindex="0">Focusable</div></div>
    </form>
    <table><caption>Orders (${ROWS})</caption>
      <thead><tr><th>Number</th><th>Customer</th><th>Amount</th><th>Status</th><th>Actions</th></tr></thead>
      <tbody>${Array.from({ length: ROWS }, (_, i) => row(i + 1)).join('')}</tbody>
    </table>
    <ul><li>First <a href="#f">link</a></li><li>Second</li></ul>
  </main></body></html>`;

/**
 * Applies `count` random edits drawn from `seed` (in the page, so they land between two reads as one
 * batch): text, rows added, removed and moved, classes and styles that hide, attributes, values and
 * checkedness set as properties, focus, nested elements, label and referenced text. Resolves once the page
 * has rendered after them: some effects come only then (a focused button that was disabled loses focus at
 * the next rendering update), and the two reads compared must not fall on either side of one.
 */
function edit(page: Page, seed: number, count: number): Promise<string[]> {
  return page.evaluate(
    inPageCall(
      async ({ seed, count }: { seed: number; count: number }) => {
        let state = seed >>> 0;
        const random = () => {
          state = (state + 0x6d2b79f5) >>> 0;
          let t = state;
          t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        };
        const pick = <T>(list: ArrayLike<T>): T | undefined => list[Math.floor(random() * list.length)];
        const all = (selector: string) => document.querySelectorAll(selector);
        const word = () => ['red', 'green', 'blue', 'amber', ''][Math.floor(random() * 5)] as string;
        const edits: Record<string, () => void> = {
          text: () => {
            const cell = pick(all('td'));
            if (cell) cell.textContent = `${word()} ${Math.floor(random() * 100)}`;
          },
          charData: () => {
            const text = pick(all('td.customer, a, li, p'))?.firstChild;
            if (text && text.nodeType === 3) (text as Text).data += ` ${word()}`;
          },
          addRow: () => {
            const rows = all('tbody tr');
            const source = pick(rows);
            if (!source) return;
            const clone = source.cloneNode(true) as Element;
            (clone.querySelector('td') as Element).textContent = `new ${Math.floor(random() * 1000)}`;
            source.parentElement?.insertBefore(clone, pick(rows) ?? null);
          },
          removeRow: () => pick(all('tbody tr'))?.remove(),
          moveRow: () => {
            const rows = all('tbody tr');
            const moved = pick(rows);
            if (moved) moved.parentElement?.insertBefore(moved, pick(rows) ?? null);
          },
          toggleClass: () =>
            pick(all('tbody tr, td, li, p, .box'))?.classList.toggle(
              pick(['hide', 'ghost', 'flag', 'show']) as string,
            ),
          toggleStyle: () => {
            const element = pick(all('td, span, em, b, li')) as HTMLElement | undefined;
            if (element) element.style.display = element.style.display === 'none' ? '' : 'none';
          },
          ariaLabel: () => {
            const element = pick(all('button, td, a, input, tr'));
            if (!element) return;
            if (random() < 0.5) element.removeAttribute('aria-label');
            else element.setAttribute('aria-label', `Label ${word()}`);
          },
          disabled: () => {
            const element = pick(all('button, input, select, textarea')) as HTMLButtonElement | undefined;
            if (element) element.disabled = !element.disabled;
          },
          ariaState: () => {
            const element = pick(all('button, tr, li, a'));
            const attribute = pick([
              'aria-expanded',
              'aria-pressed',
              'aria-disabled',
              'aria-hidden',
            ]) as string;
            if (!element) return;
            if (element.hasAttribute(attribute)) element.removeAttribute(attribute);
            else element.setAttribute(attribute, 'true');
          },
          value: () => {
            const input = pick(all('input[type=search], textarea')) as HTMLInputElement | undefined;
            if (input) input.value = word();
          },
          check: () => {
            const box = pick(all('input[type=checkbox], input[type=radio]')) as HTMLInputElement | undefined;
            if (box) box.checked = !box.checked;
          },
          select: () => {
            const select = pick(all('select')) as HTMLSelectElement | undefined;
            if (select) select.selectedIndex = 1 - select.selectedIndex;
          },
          focus: () =>
            (pick(all('button, a, input, select, [tabindex]')) as HTMLElement | undefined)?.focus(),
          nest: () => {
            const host = pick(all('td, button, li, p'));
            if (!host) return;
            const span = document.createElement(random() < 0.5 ? 'span' : 'div');
            span.textContent = word();
            if (random() < 0.3) span.setAttribute('role', 'button');
            host.appendChild(span);
          },
          role: () => {
            const element = pick(all('td > span, p, li, em'));
            if (!element) return;
            if (element.hasAttribute('role')) element.removeAttribute('role');
            else element.setAttribute('role', pick(['button', 'heading', 'note', 'presentation']) as string);
          },
          label: () => {
            const label = pick(all('label'));
            if (label?.lastChild?.nodeType === 3) (label.lastChild as Text).data = ` Only ${word()}`;
          },
          referenced: () => {
            const hint = document.getElementById('hint');
            if (hint) hint.textContent = `Hint ${word()}`;
          },
          details: () => {
            const details = document.querySelector('details');
            if (details) details.open = !details.open;
          },
          editable: () => {
            const memo = document.querySelector('[contenteditable]');
            if (memo) memo.textContent = `Memo ${word()}`;
          },
          title: () => {
            document.title = `Model page ${word()}`;
          },
        };
        const names = Object.keys(edits);
        const done: string[] = [];
        for (let i = 0; i < count; i += 1) {
          const name = pick(names) as string;
          edits[name]?.();
          done.push(name);
        }
        await new Promise((rendered) => requestAnimationFrame(() => setTimeout(rendered, 0)));
        return done;
      },
      { seed, count },
    ),
  ) as Promise<string[]>;
}

/**
 * Keys of nodes that have left the document and no read has reported yet, found by checking every key the
 * page holds (what a full walk reports): empty when the model's reads reported each removal.
 */
async function unreportedDetached(): Promise<number[]> {
  const encoded = await page.evaluate(
    (global) =>
      (window as unknown as Record<string, { walker: { encodeSnapshot: (t: unknown[]) => string } }>)[
        global
      ]?.walker.encodeSnapshot([]),
    ENGINE_GLOBAL,
  );
  return [...(await decodeWire(encoded ?? '')).detached];
}

/** A full walk of the same scope, without taking detached keys or restarting the model. */
async function fullWalk(): Promise<RawNode[]> {
  const tuples = await page.evaluate(
    (global) =>
      (window as unknown as Record<string, { walker: { nodes: (r: object) => unknown[] } }>)[
        global
      ]?.walker.nodes({ bounds: false }),
    ENGINE_GLOBAL,
  );
  return (tuples as NodeTuple[]).map(decodeNode);
}

describe('the incremental snapshot model', () => {
  beforeAll(() => page.setContent(PAGE));

  it('reads the same nodes, refs and diffs as a full walk after every batch of random edits', async () => {
    const scope = { bounds: false };
    const incremental = new RefStore('s-inc');
    const full = new RefStore('s-full');
    let raw = await snapshotDocument(page, scope);
    let previous = await incremental.record('w', raw, scope, incremental.actions.mark);
    let previousFull = await full.record('w', { ...raw, nodes: await fullWalk() }, scope, full.actions.mark);
    let spliced = 0;
    for (let batch = 1; batch <= 40; batch += 1) {
      const edits = await edit(page, 1000 + batch, 1 + (batch % 4));
      raw = await snapshotDocument(page, scope);
      const walked = await fullWalk();
      const context = `batch ${batch}: ${edits.join(', ')}`;
      expect(raw.nodes, context).toEqual(walked);
      if (raw.incremental) spliced += 1;
      const next = await incremental.record('w', raw, scope, incremental.actions.mark);
      const nextFull = await full.record(
        'w',
        { ...raw, nodes: walked, incremental: undefined },
        scope,
        full.actions.mark,
      );
      expect(next.nodes, context).toEqual(nextFull.nodes);
      expect(diff(previous, next), context).toEqual(diff(previousFull, nextFull));
      expect(await unreportedDetached(), context).toEqual([]);
      previous = next;
      previousFull = nextFull;
    }
    // Most batches are placed by the model (label, reference and title edits make it walk afresh).
    expect(spliced).toBeGreaterThan(15);
  });

  it('answers a repeated read without a change as unchanged, and one row edit as that row', async () => {
    const scope = { bounds: false };
    const first = await snapshotDocument(page, scope);
    const again = await snapshotDocument(page, scope);
    expect(again.incremental?.splices).toEqual([]);
    expect(again.nodes).toBe(first.nodes);
    await page.evaluate(() => {
      const cell = document.querySelector('tbody tr:nth-child(3) td.customer');
      if (cell) cell.textContent = 'Edited customer';
    });
    const edited = await snapshotDocument(page, scope);
    expect(edited.incremental?.base).toBe(again);
    const names = edited.incremental?.splices.flatMap((splice) =>
      edited.nodes.slice(splice.at, splice.at + splice.inserted).map((node) => node.name),
    );
    expect(names).toContain('Edited customer');
    expect(edited.nodes.length).toBe(again.nodes.length);
    expect(edited.nodes).toEqual(await fullWalk());
  });
});
