import { describe, expect, it } from 'vitest';
import { querySelectorOf, type RefLocation, toTargetQuery } from './target-input.js';

const refs: Record<string, RefLocation> = {
  e1: { windowId: 'w1', documentId: 'd1', key: 11 },
  e2: { windowId: 'w2', documentId: 'd2', key: 22 },
};
const resolveRef = (ref: string) => {
  const location = refs[ref];
  if (!location) throw new Error(`unknown ${ref}`);
  return location;
};

describe('target input', () => {
  it('turns a ref into its document key and pins the window', () => {
    expect(toTargetQuery({ ref: 'e1' }, resolveRef)).toEqual({
      query: { spec: { kind: 'key', key: 11, ref: 'e1', documentId: 'd1' } },
      windowId: 'w1',
    });
  });

  it('keeps role + name, nth and within, taking the window from a ref in within', () => {
    expect(
      toTargetQuery(
        { role: 'button', name: 'Done', exact: false, nth: 1, within: { ref: 'e1' } },
        resolveRef,
      ),
    ).toEqual({
      query: {
        spec: { kind: 'role', role: 'button', name: 'Done', exact: false },
        nth: 1,
        within: { spec: { kind: 'key', key: 11, ref: 'e1', documentId: 'd1' } },
      },
      windowId: 'w1',
    });
  });

  it.each([
    [{}, /needs one of/],
    [{ ref: 'e1', selector: '#a' }, /ref and selector/],
    [{ name: 'Save' }, /give `role` too/],
    [{ text: 'x', nth: -1 }, /zero-based/],
    [{ ref: 'e1', within: { ref: 'e2' } }, /different windows/],
    [{ query: 'role=button', testId: 'x' }, /testId and query/],
    [{ role: 'button', within: { query: 'role=list' } }, /cannot sit inside another target/],
  ])('refuses %j as BAD_INPUT', (request, message) => {
    expect(() => toTargetQuery(request, resolveRef)).toThrow(message);
    try {
      toTargetQuery(request, resolveRef);
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_INPUT' });
    }
  });

  it('parses a query target, and refuses what the query says itself', () => {
    expect(querySelectorOf({ role: 'button' })).toBeNull();
    expect(querySelectorOf({ query: 'role=button', nth: 1 })?.alternatives).toHaveLength(1);
    expect(() => querySelectorOf({ query: 'role=button', within: { ref: 'e1' } })).toThrow(/A >> B/);
    expect(() => querySelectorOf({ query: 'name=x', exact: false })).toThrow(/name~=/);
    expect(() => querySelectorOf({ query: 'role=' })).toThrow(/column 6/);
  });
});
