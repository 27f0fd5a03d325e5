import { describe, expect, it } from 'vitest';
import { buildSchema } from '../schema/index.js';
import { sessionArgumentOf } from './owner-routing.js';

describe('which argument routes a root field to its session owner', () => {
  const schema = buildSchema();
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const queries = schema.getQueryType()?.getFields() ?? {};

  it('actions by their `session`, session lifecycles by `id`, reads of a session by `id`', () => {
    expect(sessionArgumentOf(mutations.click!)).toBe('session');
    expect(sessionArgumentOf(mutations.stop!)).toBe('id');
    expect(sessionArgumentOf(mutations.detach!)).toBe('id');
    expect(sessionArgumentOf(queries.session!)).toBe('id');
  });

  it('never an approval id, nor a field that names no session', () => {
    expect(sessionArgumentOf(mutations.approve!)).toBeNull();
    expect(sessionArgumentOf(mutations.deny!)).toBeNull();
    expect(sessionArgumentOf(mutations.launch!)).toBeNull();
    expect(sessionArgumentOf(queries.replicas!)).toBeNull();
  });

  it('every mutation that names a session by `session:` is routed by it', () => {
    const unrouted = Object.values(mutations).filter(
      (field) => field.args.some((arg) => arg.name === 'session') && sessionArgumentOf(field) === null,
    );
    expect(unrouted.map((field) => field.name)).toEqual([]);
  });
});
