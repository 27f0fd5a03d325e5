import SchemaBuilder from '@pothos/core';
import { execute, GraphQLNonNull, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { buildSchema } from '../index.js';
import './steps.js';

/** A schema of its own, with the steps gate alone: each field records that it ran, and `fail` throws. */
function stepsSchema(ran: string[]) {
  const builder = new SchemaBuilder<{ DefaultFieldNullability: false }>({
    plugins: ['steps'],
    defaultFieldNullability: false,
  });
  builder.queryType({ fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }) });
  const step = (name: string, error?: Error) => () => {
    ran.push(name);
    if (error) throw error;
    return name;
  };
  builder.mutationType({
    fields: (t) => ({
      act: t.string({ governance: { session: null }, resolve: step('act') }),
      miss: t.string({
        governance: { session: null },
        resolve: step('miss', new StagegraphError('SELECTOR_NO_MATCH', 'nothing matched')),
      }),
      crash: t.string({ governance: { session: null }, resolve: step('crash', new Error('a bug')) }),
      approve: t.string({ governance: { answersApproval: true }, resolve: step('approve') }),
      stop: t.string({ governance: { session: null }, endsSession: true, resolve: step('stop') }),
      detach: t.string({
        governance: { session: null },
        endsSession: true,
        resolve: step('detach', new StagegraphError('BAD_INPUT', 'stop it instead')),
      }),
      lost: t.stringList({
        governance: { session: null },
        resolve: step('lost', new StagegraphError('SESSION_NOT_RUNNING', 'gone')),
      }),
    }),
  });
  return builder.toSchema();
}

async function run(document: string, context: object = {}, ran: string[] = []) {
  const result = await execute({
    schema: stepsSchema(ran),
    document: parse(document),
    contextValue: context,
  });
  const errors = (result.errors ?? []).map((error) => ({
    path: error.path,
    code: (error.originalError as StagegraphError | undefined)?.code,
    details: (error.originalError as StagegraphError | undefined)?.details,
    message: error.message,
  }));
  return { data: result.data, errors, ran };
}

describe('the steps of a mutation operation', () => {
  it('keeps every step in data; after a failed step the later ones do not run and name it', async () => {
    const { data, errors, ran } = await run('mutation { a: act b: miss c: act d: act }');
    expect(data).toEqual({ a: 'act', b: null, c: null, d: null });
    expect(ran).toEqual(['act', 'miss']);
    expect(errors).toEqual([
      expect.objectContaining({ path: ['b'], code: 'SELECTOR_NO_MATCH' }),
      {
        path: ['c'],
        code: 'STEP_SKIPPED',
        details: { failedStep: 'b', failedField: 'miss', failedCode: 'SELECTOR_NO_MATCH' },
        message: 'Step "c" (act) did not run: step "b" (miss) failed before it with SELECTOR_NO_MATCH.',
      },
      expect.objectContaining({
        path: ['d'],
        code: 'STEP_SKIPPED',
        details: expect.objectContaining({ failedStep: 'b' }),
      }),
    ]);
  });

  it('names a step by its field when it has no alias, and an unexpected failure as INTERNAL', async () => {
    const { errors } = await run('mutation { crash act }');
    expect(errors[1]).toMatchObject({
      path: ['act'],
      code: 'STEP_SKIPPED',
      details: { failedStep: 'crash', failedCode: 'INTERNAL' },
    });
  });

  it('approve, deny and the ends of sessions run after a failed step; the first failure stays the one named', async () => {
    const { data, errors, ran } = await run(
      'mutation { a: miss answer: approve end: stop after: act gone: lost last: act }',
    );
    expect(ran).toEqual(['miss', 'approve', 'stop']);
    expect(data).toEqual({ a: null, answer: 'approve', end: 'stop', after: null, gone: null, last: null });
    expect(errors.map((error) => [error.path?.[0], error.code, error.details?.failedStep])).toEqual([
      ['a', 'SELECTOR_NO_MATCH', undefined],
      ['after', 'STEP_SKIPPED', 'a'],
      ['gone', 'STEP_SKIPPED', 'a'],
      ['last', 'STEP_SKIPPED', 'a'],
    ]);
  });

  it('a failing step that always runs stops the steps after it too', async () => {
    const { errors, ran } = await run('mutation { act let: detach last: act }');
    expect(ran).toEqual(['act', 'detach']);
    expect(errors.map((error) => [error.path?.[0], error.code, error.details?.failedStep])).toEqual([
      ['let', 'BAD_INPUT', undefined],
      ['last', 'STEP_SKIPPED', 'let'],
    ]);
  });

  it('keeps each request to itself: one parsed document sent twice starts afresh each time', async () => {
    const schema = stepsSchema([]);
    const document = parse('mutation { a: miss b: act }');
    await execute({ schema, document, contextValue: {} });
    const second = await execute({ schema, document, contextValue: {} });
    expect(second.errors?.map((error) => (error.originalError as StagegraphError).code)).toEqual([
      'SELECTOR_NO_MATCH',
      'STEP_SKIPPED',
    ]);
    const fresh = await execute({ schema, document: parse('mutation { act }'), contextValue: {} });
    expect(fresh).toEqual({ data: { act: 'act' } });
  });

  it('makes every Mutation field of the served schema nullable and leaves reads as declared', () => {
    const schema = buildSchema({ allowEval: 'both' });
    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
    expect(mutations.length).toBeGreaterThan(10);
    expect(
      mutations.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name),
    ).toEqual([]);
    expect(schema.getQueryType()?.getFields().sessions?.type).toBeInstanceOf(GraphQLNonNull);
  });
});
