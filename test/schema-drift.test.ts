import { readFileSync } from 'node:fs';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchema as parseSdl, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/index.js';

describe('schema.graphql', () => {
  it('matches the schema the server serves (run `npm run codegen` when this fails)', () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    const served = printSchemaWithDirectives(buildSchema());
    expect(printSchema(parseSdl(committed))).toBe(printSchema(parseSdl(served)));
  });

  it('shows the capability a field needs in the SDL', () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toMatch(/windows: \[Window!\]! @requiresCapability\(capability: WINDOWS\)/);
    const directive = parseSdl(committed).getDirective('requiresCapability');
    expect(directive?.locations).toEqual(['FIELD_DEFINITION']);
    expect(directive?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
      'capability: Capability!',
    ]);
  });
});
