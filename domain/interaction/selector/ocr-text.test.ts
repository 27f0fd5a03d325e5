import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { OcrWord } from '../../vision/tsv.js';
import { evaluateSelector } from './evaluate.js';
import { OcrText, ocrTarget, usesOcr } from './ocr-text.js';
import { parseSelector } from './parser.js';
import type { SelectorNode } from './selector-node.js';

const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const element = (
  key: number,
  parent: number | null,
  role: string,
  name: string,
  bbox: ReturnType<typeof box>,
) => ({ key, parent, role, name, states: [], interactive: role === 'button', bbox }) as SelectorNode;

/** A page with a real Submit button, and two canvases: a toolbar painting Export and Delete, a chart. */
const NODES: SelectorNode[] = [
  element(1, null, 'document', 'Page', box(0, 0, 900, 700)),
  element(2, 1, 'region', 'Toolbar', box(0, 0, 640, 64)),
  element(3, 1, 'region', 'Chart', box(0, 64, 640, 300)),
  element(4, 1, 'button', 'Submit', box(700, 10, 80, 30)),
];
const word = (text: string, line: number, bbox: ReturnType<typeof box>, confidence = 95): OcrWord => ({
  text,
  line,
  bbox,
  confidence,
});
const WORDS: OcrWord[] = [
  word('Export', 0, box(200, 20, 70, 20)),
  word('Delete', 0, box(360, 20, 70, 20)),
  word('Export', 1, box(40, 290, 70, 20), 60),
  word('data', 1, box(120, 290, 50, 20), 80),
  word('Submit', 2, box(710, 15, 60, 20)),
];
const context = { testIdKeys: new Map(), ocr: new OcrText(WORDS, NODES) };
const run = (source: string) => evaluateSelector(parseSelector(source), NODES, context);
const names = (source: string) => {
  const result = run(source);
  return result.outcome === 'match' ? result.nodes.map((n) => [n.name, n.parent]) : result.outcome;
};

describe('ocr: in the selector language', () => {
  it('parses ocr:"…" and ocr:word as exact, ocr~= as contains, and keeps it alone in its step', () => {
    const predicate = (source: string) => parseSelector(source).alternatives[0]!.steps[0]!.subject.predicates;
    expect(predicate('ocr:"Save draft"')).toEqual([{ key: 'ocr', value: 'Save draft', contains: false }]);
    expect(predicate('ocr:Export')).toEqual([{ key: 'ocr', value: 'Export', contains: false }]);
    expect(predicate('ocr~=exp')).toEqual([{ key: 'ocr', value: 'exp', contains: true }]);
    expect(() => parseSelector('role=button ocr:"Export"')).toThrow(StagegraphError);
    expect(() => parseSelector('ocr:')).toThrow(/a value/);
    expect(usesOcr(parseSelector('role=button name=Submit ?? ocr:"Submit"'))).toBe(true);
    expect(usesOcr(parseSelector('role=button name=Submit'))).toBe(false);
  });

  it('matches exact words (case-sensitive), runs of words, and contains in any case', () => {
    expect(names('ocr:"Export"')).toEqual([
      ['Export', 2],
      ['Export', 3],
    ]);
    expect(names('ocr:"export"')).toBe('none');
    expect(names('ocr:"Export data"')).toEqual([['Export data', 3]]);
    expect(names('ocr~="ELET"')).toEqual([['Delete', 2]]);
    expect(names('ocr~="t da"')).toEqual([['Export data', 3]]);
  });

  it('reads inside the box of the element a >> scoped it to, and beside an anchor', () => {
    expect(names('role=region name=Chart >> ocr:"Export"')).toEqual([['Export', 3]]);
    expect(names('ocr:"Delete" right-of ocr:"Delete"')).toBe('none');
    const right = run('ocr:Delete right-of ocr:"Export data"');
    expect(right.outcome).toBe('none');
    expect(names('ocr~=t right-of role=region name=Toolbar')).toEqual([['Submit', 4]]);
  });

  it('falls back with ?? only when the tree named nothing, and says OCR', () => {
    const tree = run('role=button name=Submit ?? ocr:"Submit"');
    expect(tree).toMatchObject({ outcome: 'match', strategy: 'ROLE_NAME', alternative: 0 });
    const pixels = run('role=button name=Export ?? ocr:"Delete"');
    expect(pixels).toMatchObject({ outcome: 'match', strategy: 'OCR', confidence: 'OCR', alternative: 1 });
    const withoutEngine = evaluateSelector(parseSelector('ocr:"Delete"'), NODES, { testIdKeys: new Map() });
    expect(withoutEngine.outcome).toBe('none');
  });

  it("acts at the words' centre, as an offset into the element holding them", () => {
    const result = run('ocr:"Delete"');
    if (result.outcome !== 'match') throw new Error(result.outcome);
    expect(ocrTarget(result.nodes[0]!, NODES[1]!)).toEqual({
      text: 'Delete',
      bbox: box(360, 20, 70, 20),
      position: { x: 395, y: 30 },
    });
  });
});
