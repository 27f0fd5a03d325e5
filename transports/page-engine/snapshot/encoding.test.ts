import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { firstToSettle } from '../../../test/helpers/event-loop.js';
import { createWire, decodeNode, decodeWire, type NodeTuple } from './encoding.js';
import { ENGINE_GLOBAL, type Engine, installEngine } from './install.js';

const AWKWARD = [
  '',
  'plain',
  'say "hi" \\ back\\slash',
  'line\nbreak\r\nand\ttab',
  '1,2,3,',
  '5,oops',
  '-7,',
  '{"s":"FOCUSED"}',
  '\u001e\u001f\u0000 controls',
  'emoji 👩‍💻 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, ünïcödé, 中文, العربية',
  '\n',
];

/** Tuples as the walker makes them: text runs, boxes, extras, secrets, keys out of order. */
function tuples(): NodeTuple[] {
  const out: NodeTuple[] = [[1, 0, 'document', 'Doc "title"\n', 0, 0]];
  AWKWARD.forEach((name, i) => {
    out.push([10 + i, 1, i % 2 ? 'text' : 'button', name, i % 4, 0]);
  });
  out.push([3, 12, 'textbox', 'Password', 3, { s: 'FOCUSED REQUIRED', v: '[redacted]' }, -4, 0, 120, 18]);
  out.push([4, 3, 'link', 'Go, "there"', 1, { u: 'https://x.test/a,b?"c"\n', d: AWKWARD[3] }]);
  out.push([200, 4, 'heading', 'H', 0, { l: 2 }, 0, 0, 0, 0]);
  out.push([5, 200, 'combobox', 'Status', 1, { o: 3, v: 'Open' }]);
  return out;
}

describe('wire text', () => {
  it('reads back exactly what the tuples say, whatever the names hold', async () => {
    const wire = createWire();
    const meta = { documentId: 'd1', url: 'about:blank', title: 'T,\n"', detached: [7, 8] };
    const text = wire.snapshot(meta, tuples());
    const decoded = await decodeWire(text);
    expect(decoded).toEqual({ ...meta, nodes: tuples().map(decodeNode) });
    expect(decoded.nodes.find((node) => node.key === 3)).toMatchObject({
      parent: 12,
      secret: true,
      interactive: true,
      states: ['FOCUSED', 'REQUIRED'],
      bbox: { x: -4, y: 0, width: 120, height: 18 },
    });
  });

  it('reads an empty walk, a stale answer and a plain JSON snapshot of tuples', async () => {
    const wire = createWire();
    const meta = { documentId: 'd2', url: 'u', title: '', detached: [] };
    expect(await decodeWire(wire.snapshot(meta, []))).toEqual({ ...meta, nodes: [] });
    expect(await decodeWire(JSON.stringify({ stale: true, documentId: 'd3' }))).toMatchObject({
      stale: true,
      documentId: 'd3',
      nodes: [],
    });
    expect((await decodeWire(JSON.stringify({ ...meta, nodes: tuples() }))).nodes).toEqual(
      tuples().map(decodeNode),
    );
  });

  it('decodes a big walk in turns of the event loop, record for record', async () => {
    const many: NodeTuple[] = [[1, 0, 'document', 'Doc', 0, 0]];
    for (let key = 2; key <= 30_000; key += 1) many.push([key, 1, 'button', `Row ${key}`, 1, 0]);
    const decoding = decodeWire(createWire().snapshot({ documentId: 'd', url: '', title: '' }, many));
    expect(await firstToSettle(decoding)).toBe('turn');
    expect((await decoding).nodes).toEqual(many.map(decodeNode));
  });

  it('refuses text that is not wire text rather than misreading it', async () => {
    await expect(decodeWire('{"documentId":"d","roles":["document"]}\n1,0,0,0,x')).rejects.toThrow(
      /wire text/,
    );
  });
});

describe('wire text through CDP', () => {
  let page: Page;
  useSharedPage((opened) => {
    page = opened;
  });

  it("is the walker's own tuples, names of every kind intact", async () => {
    const cells = AWKWARD.map(
      (_, i) =>
        `<tr><td></td><td><button></button></td><td><a href="#r${i}"></a><textarea></textarea></td></tr>`,
    ).join('');
    await page.setContent(`<title>Wire</title><table>${cells}</table>`);
    await page.evaluate((names) => {
      const rows = document.querySelectorAll('tr');
      names.forEach((name, i) => {
        const row = rows[i] as HTMLTableRowElement;
        (row.cells[0] as HTMLElement).textContent = name;
        (row.querySelector('button') as HTMLElement).setAttribute('aria-label', `${name}!`);
        (row.querySelector('a') as HTMLElement).textContent = name;
        (row.querySelector('textarea') as HTMLTextAreaElement).value = name;
      });
    }, AWKWARD);
    await installEngine(page);
    const { tupleList, text } = await page.evaluate((global) => {
      const engine = (window as unknown as Record<string, Engine>)[global] as Engine;
      return { tupleList: engine.walker.nodes({}) as NodeTuple[], text: engine.walker.snapshot({}) };
    }, ENGINE_GLOBAL);
    const decoded = await decodeWire(text);
    expect(decoded.nodes).toEqual(tupleList.map(decodeNode));
    expect(decoded.nodes.some((node) => node.name === AWKWARD[9])).toBe(true);
    // A textarea keeps a value's line breaks (as \n) and quotes.
    expect(decoded.nodes.some((node) => node.value === 'line\nbreak\nand\ttab')).toBe(true);
    expect(decoded.nodes.some((node) => node.value === AWKWARD[2])).toBe(true);
  });
});
