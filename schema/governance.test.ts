import { describe, expect, it } from 'vitest';
import type { GatewayContext } from './context.js';
import { sessionArgumentOf } from './governance.js';
import { buildSchema } from './index.js';

/** Stands in for the chokepoint's state: the first thing the chokepoint reads is whether the log is sound. */
function probe(seen: string[], name: string) {
  return {
    track: <T>(work: Promise<T>) => work,
    audit: {
      get failure() {
        seen.push(name);
        throw new Error('reached the chokepoint');
      },
    },
  } as unknown as GatewayContext['governance'];
}

describe('enforceGovernance', () => {
  const schema = buildSchema();
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});

  it('puts every mutation through the chokepoint before its resolver runs', async () => {
    expect(mutations.length).toBeGreaterThan(10);
    const seen: string[] = [];
    for (const field of mutations) {
      const context = { governance: probe(seen, field.name) } as GatewayContext;
      await expect(
        Promise.resolve().then(() => field.resolve?.({}, {}, context, {} as never)),
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
});
