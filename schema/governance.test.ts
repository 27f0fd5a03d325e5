import SchemaBuilder from '@pothos/core';
import type { GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from './context.js';
import { governedOperationOf } from './gates/declared-governance.js';
import './gates/governance.js';
import { buildSchema } from './index.js';

/** Stands in for the chokepoint's state: the first thing the chokepoint asks is whether the log can be written. */
function probe(seen: string[], name: string) {
  return {
    track: <T>(work: Promise<T>) => work,
    audit: {
      ready() {
        seen.push(name);
        throw new Error('reached the chokepoint');
      },
    },
  } as unknown as GatewayContext['governance'];
}

type Field = GraphQLField<unknown, unknown>;
/** What a mutation's resolver reads of its execution: the operation and the step it is (schema/gates/steps.ts). */
const stepOf = (field: Field) => ({ operation: {}, path: { key: field.name } }) as never;
const sessionArgumentOf = (field: Field) => governedOperationOf(field)?.session;
const actedOnOf = (field: Field) => governedOperationOf(field)?.actsOn?.kind ?? null;

describe('the governance gate', () => {
  const schema = buildSchema();
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});

  it('puts every mutation through the chokepoint before its resolver runs', async () => {
    expect(mutations.length).toBeGreaterThan(10);
    const seen: string[] = [];
    for (const field of mutations) {
      const context = { governance: probe(seen, field.name) } as GatewayContext;
      await expect(
        Promise.resolve().then(() => field.resolve?.({}, {}, context, stepOf(field))),
      ).rejects.toThrow('reached the chokepoint');
    }
    expect(seen).toEqual(mutations.map((field) => field.name));
  });

  it('leaves reads alone', async () => {
    const seen: string[] = [];
    const errorCodes = schema.getQueryType()?.getFields().errorCodes;
    const context = { governance: probe(seen, 'errorCodes') } as GatewayContext;
    expect(await errorCodes?.resolve?.({}, {}, context, {} as never)).toContainEqual(
      expect.objectContaining({ code: 'POLICY_DENIED' }),
    );
    expect(seen).toEqual([]);
  });

  it('reads the session a mutation acts on from `session`, else `id`; launch acts on none', () => {
    const field = (name: string) => mutations.find((candidate) => candidate.name === name)!;
    expect(sessionArgumentOf(field('click'))).toBe('session');
    expect(sessionArgumentOf(field('stop'))).toBe('id');
    expect(sessionArgumentOf(field('launch'))).toBeNull();
  });

  it('knows what every mutation that acts on a named thing acts on', () => {
    const declared = Object.fromEntries(
      mutations.flatMap((field) => {
        const kind = actedOnOf(field);
        return kind && kind !== 'element' ? [[field.name, kind]] : [];
      }),
    );
    expect(declared).toEqual({
      inject: 'program',
      invokeContextMenuItem: 'contextMenuItem',
      invokeMenuItem: 'menuItem',
      invokeTray: 'tray',
      launch: 'program',
      launchCommand: 'program',
      launchDesktop: 'program',
      navigate: 'location',
    });
    // A mutation that names a menu path, a tray or a program without saying what it acts on is a hole.
    const naming = mutations.filter((field) =>
      field.args.some(
        (arg) =>
          ['path', 'tray', 'target'].includes(arg.name) ||
          /^(Launch|Inject)/.test(String(arg.type).replace(/!$/, '')),
      ),
    );
    for (const field of naming) expect(actedOnOf(field), field.name).not.toBeNull();
  });

  it('has every mutation declare its governance', () => {
    for (const field of Object.values(
      buildSchema({ allowEval: 'both' }).getMutationType()?.getFields() ?? {},
    ))
      expect(governedOperationOf(field), field.name).not.toBeNull();
  });

  it('fails the build of a mutation that declares no governance', () => {
    const bare = new SchemaBuilder<{ Context: GatewayContext }>({ plugins: ['governance'] });
    bare.queryType({ fields: (t) => ({ ok: t.boolean({ resolve: () => true }) }) });
    bare.mutationType({
      // @ts-expect-error: the compiler refuses a mutation without `governance` first.
      fields: (t) => ({ act: t.boolean({ resolve: () => true }) }),
    });
    expect(() => bare.toSchema()).toThrow('Mutation.act declares no governance');
  });
});
