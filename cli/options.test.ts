import fc from 'fast-check';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parseClientArgs, UsageError } from './options.js';

/** Definitions whose strings, comments and default values hold braces and keywords to mislead a scan. */
const DEFINITIONS = [
  '{ sessions { id } }',
  'query A { sessions { id } }',
  'query B($x: String = "{ } query C") { session(id: $x) { id } }',
  'mutation M($i: LaunchInput = { main: "x" }) { launch(input: $i) { id } }',
  'subscription S @skip(if: false) { sessionEvents { type } }',
  'query D { a: sessions { id } # } query E {\n }',
  'query F { errorCodes { hint(text: """ { query G } """) } }',
  'fragment Frag on Session { id }',
];

function operationsOf(document: string): number {
  return parse(document).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION)
    .length;
}

describe('parseClientArgs and a document of several operations', () => {
  it('refuses exactly the documents graphql counts more than one operation in, unless --operation names one', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...DEFINITIONS), { minLength: 1, maxLength: 5 }), (parts) => {
        const document = parts.join('\n');
        const call = () => parseClientArgs([document], {}, {});
        if (operationsOf(document) > 1) expect(call).toThrow(UsageError);
        else expect(call().query).toBe(document);
        expect(parseClientArgs([document, '--operation', 'A'], {}, {}).operationName).toBe('A');
      }),
    );
  });
});
