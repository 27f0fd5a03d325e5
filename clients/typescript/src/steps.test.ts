import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { stepsDocument } from './steps.js';

const SCHEMA = buildSchema(readFileSync(new URL('../../../schema.graphql', import.meta.url), 'utf8'));

describe('stepsDocument', () => {
  it('writes every step as one aliased field of one mutation, each value a variable', () => {
    const document = stepsDocument('s1', [
      { fill: { target: { testId: 'name' }, value: 'Ada', secret: true } },
      { type: { target: { testId: 'shortcut' }, text: 'x' } },
      { press: { key: 'Enter' } },
      { select: { target: { testId: 'color' }, labels: ['Red'] } },
      { check: { target: { testId: 'subscribe' } } },
      { click: { target: { role: 'button', name: 'Submit' }, timeoutMs: 1000 } },
      { expect: { kind: 'TEXT', target: { testId: 'status' }, contains: 'Submitted' } },
    ]);
    expect(validate(SCHEMA, parse(document.query))).toEqual([]);
    expect(document.aliases).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    expect(document.kinds).toEqual(['fill', 'type', 'press', 'select', 'check', 'click', 'expect']);
    expect(document.query).toContain('s3: selectOption(');
    expect(document.query).toContain('s4: setChecked(');
    expect(document.variables).toMatchObject({
      session: 's1',
      s0_value: 'Ada',
      s0_secret: true,
      s3_labels: ['Red'],
      s4_checked: true,
      s5_timeoutMs: 1000,
      s6_kind: 'TEXT',
    });
    expect(document.query).not.toContain('s2_target');
  });

  it('asks only the last action for the settled diff, and expects for their actual value', () => {
    const { query } = stepsDocument(undefined, [
      { click: { target: { testId: 'log' } } },
      { click: { target: { testId: 'submit' } } },
      { expect: { kind: 'URL', contains: 'index' } },
    ]);
    const lines = query.split('\n');
    expect(lines[1]).not.toContain('diff');
    expect(lines[2]).toContain('diff { outline }');
    expect(lines[3]).toContain('{ kind actual }');
    expect(validate(SCHEMA, parse(query))).toEqual([]);
  });

  it('refuses no steps and unknown steps', () => {
    expect(() => stepsDocument('s1', [])).toThrow(/at least one step/);
    expect(() => stepsDocument('s1', [{ hover: {} } as never])).toThrow(/unknown step/);
  });
});
