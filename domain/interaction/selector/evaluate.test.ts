import { describe, expect, it } from 'vitest';
import type { NodeState } from '../../../transports/contract/window-driver.js';
import { type Evaluation, evaluateSelector } from './evaluate.js';
import { parseSelector } from './parser.js';
import type { SelectorNode } from './selector-node.js';

function node(
  key: number,
  parent: number | null,
  role: string,
  name: string,
  bbox?: [number, number, number, number],
  extra: { states?: NodeState[]; value?: string; atspiPath?: string } = {},
): SelectorNode {
  return {
    key,
    parent,
    role,
    name,
    states: extra.states ?? [],
    interactive: role !== 'text' && role !== 'group',
    ...(bbox ? { bbox: { x: bbox[0], y: bbox[1], width: bbox[2], height: bbox[3] } } : {}),
    ...(extra.value === undefined ? {} : { value: extra.value }),
    ...(extra.atspiPath === undefined ? {} : { atspiPath: extra.atspiPath }),
  };
}

/**
 * A form: a Name label with its textbox to the right, a Save button below the textbox, and a toolbar
 * group holding Save draft, Delete and a disabled Archive button in one row.
 */
const NODES: SelectorNode[] = [
  node(1, null, 'document', 'Form', [0, 0, 800, 600]),
  node(2, 1, 'text', 'Name', [10, 10, 40, 20]),
  node(3, 1, 'textbox', 'Name', [60, 10, 200, 20], { value: 'Ada', atspiPath: '/a/3' }),
  node(4, 1, 'button', 'Save', [60, 40, 60, 20]),
  node(5, 4, 'text', 'Save', [62, 42, 40, 16]),
  node(6, 1, 'group', 'Toolbar', [0, 100, 400, 40]),
  node(7, 6, 'button', 'Save draft', [10, 110, 80, 20]),
  node(8, 6, 'button', 'Delete', [100, 110, 60, 20]),
  node(9, 6, 'button', 'Archive', [170, 110, 60, 20], { states: ['DISABLED'] }),
  node(10, 1, 'button', 'Hidden'),
];

const noTestIds = { testIdKeys: new Map<string, Set<number>>() };

function run(source: string, context = noTestIds): Evaluation {
  return evaluateSelector(parseSelector(source), NODES, context);
}

function keys(evaluation: Evaluation): number[] {
  if (evaluation.outcome === 'none') return [];
  return evaluation.nodes.map((n) => n.key);
}

describe('query selector evaluation', () => {
  it('role + exact name finds one element, as ROLE_NAME', () => {
    const found = run('role=button name="Save"');
    expect(keys(found)).toEqual([4]);
    expect(found).toMatchObject({ outcome: 'match', strategy: 'ROLE_NAME', confidence: 'ROLE_NAME' });
  });

  it('contains is case-insensitive and reads as TEXT', () => {
    const found = run('role=button name~=SAV');
    expect(keys(found)).toEqual([4, 7]);
    expect(run('name~=draft')).toMatchObject({ outcome: 'match', strategy: 'TEXT', confidence: 'TEXT' });
  });

  it('an element and the run of text inside it are one match', () => {
    expect(keys(run('name=Save'))).toEqual([4]);
    expect(keys(run('name=Name'))).toEqual([2, 3]);
  });

  it('text matches a name or a value', () => {
    expect(keys(run('text=Ada'))).toEqual([3]);
  });

  it('filters on enabled and visible', () => {
    expect(keys(run('role=button enabled=false'))).toEqual([9]);
    expect(keys(run('role=button visible=false'))).toEqual([10]);
    expect(keys(run('role=button enabled=true visible=true'))).toEqual([4, 7, 8]);
  });

  it('matches AT-SPI paths and test ids as STABLE_ID', () => {
    expect(run('atspiPath=/a/3')).toMatchObject({ nodes: [{ key: 3 }], confidence: 'STABLE_ID' });
    const context = { testIdKeys: new Map([['delete', new Set([8])]]) };
    expect(run('testId=delete', context)).toMatchObject({
      nodes: [{ key: 8 }],
      strategy: 'TEST_ID',
      confidence: 'STABLE_ID',
    });
    expect(run('testId=nothing', context)).toEqual({ outcome: 'none' });
  });

  it('A >> B searches the subtree of the one match of A', () => {
    expect(keys(run('name=Toolbar >> role=button enabled=true'))).toEqual([7, 8]);
    // Unique on its own: the scope adds nothing to its evidence.
    expect(run('name=Toolbar >> name=Delete')).toMatchObject({ confidence: 'ROLE_NAME' });
    // Not unique without the scope: as weak as the weaker of the two.
    expect(run('role=group >> name~=sav')).toMatchObject({ nodes: [{ key: 7 }], confidence: 'TEXT' });
    expect(run('name=Nothing >> role=button')).toEqual({ outcome: 'none' });
  });

  it('an ambiguous scope is reported, not searched', () => {
    expect(run('role=button >> role=text')).toMatchObject({
      outcome: 'ambiguous',
      part: 'step 1 (before >>)',
    });
  });

  it('relations pick the nearest candidate, as SPATIAL when the relation decided', () => {
    const right = run('role=button right-of name="Save draft"');
    expect(right).toMatchObject({ outcome: 'match', strategy: 'SPATIAL', confidence: 'SPATIAL' });
    expect(keys(right)).toEqual([8]);
    expect(keys(run('role=button left-of name=Archive'))).toEqual([8]);
    expect(keys(run('role=button below role=textbox'))).toEqual([4]);
    expect(keys(run('role=textbox above name=Save'))).toEqual([3]);
    expect(keys(run('role=button near name=Delete'))).toEqual([7, 9]);
  });

  it('a relation that did not decide keeps the subject its own confidence', () => {
    expect(run('name=Delete right-of name="Save draft"')).toMatchObject({
      nodes: [{ key: 8 }],
      confidence: 'ROLE_NAME',
    });
  });

  it('an ambiguous anchor is reported; a missing one matches nothing', () => {
    expect(run('role=button right-of name=Name')).toMatchObject({
      outcome: 'ambiguous',
      part: 'the anchor of right-of',
    });
    expect(run('role=button right-of name=Nothing')).toEqual({ outcome: 'none' });
  });

  it('never relates an element to its own container', () => {
    expect(keys(run('role=button near name=Toolbar'))).toEqual([4]);
  });

  it('A ?? B tries B only when A matches nothing, and says which matched', () => {
    expect(run('name=Nothing ?? name=Delete')).toMatchObject({ nodes: [{ key: 8 }], alternative: 1 });
    expect(run('name=Delete ?? name=Archive')).toMatchObject({ nodes: [{ key: 8 }], alternative: 0 });
    expect(run('role=button ?? name=Archive')).toMatchObject({ alternative: 0 });
    expect(run('name=Nothing ?? name=Neither')).toEqual({ outcome: 'none' });
  });
});
