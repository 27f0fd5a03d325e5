import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { parseSelector } from './parser.js';

function syntaxDetails(source: string) {
  try {
    parseSelector(source);
  } catch (error) {
    expect(error).toBeInstanceOf(StagegraphError);
    expect((error as StagegraphError).code).toBe('SELECTOR_SYNTAX');
    return { message: (error as Error).message, ...((error as StagegraphError).details as object) } as {
      message: string;
      column: number;
      expected: string;
      found: string;
    };
  }
  throw new Error(`${source} parsed`);
}

describe('query selector parser', () => {
  it('reads predicates separated by spaces or commas, quoted or bare', () => {
    const { alternatives } = parseSelector(`role=button, name="Save draft" enabled=true visible=false`);
    expect(alternatives).toHaveLength(1);
    expect(alternatives[0]!.steps[0]!.subject.predicates).toEqual([
      { key: 'role', value: 'button' },
      { key: 'name', value: 'Save draft', contains: false },
      { key: 'enabled', value: true },
      { key: 'visible', value: false },
    ]);
  });

  it('reads contains, test ids, AT-SPI paths, single quotes and escapes', () => {
    const step = parseSelector(
      `name~=sav text~='it\\'s' testId=save-draft atspiPath=/org/a11y/atspi/accessible/12`,
    ).alternatives[0]!.steps[0]!;
    expect(step.subject.predicates).toEqual([
      { key: 'name', value: 'sav', contains: true },
      { key: 'text', value: "it's", contains: true },
      { key: 'testId', value: 'save-draft' },
      { key: 'atspiPath', value: '/org/a11y/atspi/accessible/12' },
    ]);
  });

  it('reads >> scopes, relations and ?? fallbacks', () => {
    const { alternatives } = parseSelector(
      'name="Actions" >> role=button right-of name="Fetch data" ?? testId=log',
    );
    expect(alternatives).toHaveLength(2);
    const [scope, last] = alternatives[0]!.steps;
    expect(scope!.subject.predicates).toEqual([{ key: 'name', value: 'Actions', contains: false }]);
    expect(last!.relation?.kind).toBe('right-of');
    expect(last!.relation?.anchor.predicates).toEqual([
      { key: 'name', value: 'Fetch data', contains: false },
    ]);
    expect(last!.relation?.anchor.column).toBe(40);
    expect(alternatives[1]!.steps[0]!.subject.predicates).toEqual([{ key: 'testId', value: 'log' }]);
  });

  it.each(['left-of', 'above', 'below', 'near'])('reads the %s relation', (relation) => {
    const step = parseSelector(`role=textbox ${relation} role=button`).alternatives[0]!.steps[0]!;
    expect(step.relation?.kind).toBe(relation);
  });

  it('needs no spaces around >> and ??', () => {
    const { alternatives } = parseSelector('role=list>>role=button??role=link');
    expect(alternatives.map((chain) => chain.steps.length)).toEqual([2, 1]);
  });

  it.each([
    ['', 1, 'a predicate', 'the end of the query'],
    ['role=', 6, 'a value', 'the end of the query'],
    ['role button', 6, '`=` after role', '`button`'],
    ['colour=red', 1, 'a predicate', '`colour`'],
    ['role~=button', 5, '`=` after role', '`~=`'],
    ['enabled=yes', 9, 'true or false', '`yes`'],
    ['name="Save', 11, 'a closing "', 'the end of the query'],
    ['role=button >>', 15, 'a predicate', 'the end of the query'],
    ['role=button ?? >> name=x', 16, 'a predicate', '`>>`'],
    ['role=button right-of', 21, 'a predicate', 'the end of the query'],
    ['role=button right-of near name=x', 22, 'a predicate', '`near`'],
    ['role=button name=""', 18, 'a non-empty value', 'the string ""'],
    ['role=button = x', 13, 'a predicate, a relation, `>>`, `??` or the end', '`=`'],
  ])('points at the column of %j', (source, column, expected, found) => {
    const details = syntaxDetails(source);
    expect(details.column).toBe(column);
    expect(details.expected).toContain(expected);
    expect(details.found).toBe(found);
    expect(details.message).toContain(`column ${column}`);
  });
});
