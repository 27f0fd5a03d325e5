import { describe, expect, it } from 'vitest';
import type { StubSpec } from '../../contract/renderer-control.js';
import { cdpUrlPattern } from './fetch-stubs.js';
import { MAX_STUBS, StubTable } from './stub-table.js';

const SPEC: StubSpec = {
  pattern: '*/api/*',
  methods: [],
  status: 200,
  headers: {},
  body: 'x',
  abort: false,
  delayMs: 0,
  times: null,
};

describe('StubTable', () => {
  it('gives a request to the newest active stub that matches its URL and method', () => {
    const table = new StubTable();
    table.add('old', SPEC);
    table.add('posts', { ...SPEC, methods: ['POST'] });
    expect(table.claim('GET', 'http://h/api/a')?.stub.id).toBe('old');
    expect(table.claim('POST', 'http://h/api/a')?.stub.id).toBe('posts');
    expect(table.claim('GET', 'http://h/other')).toBeUndefined();
    expect(table.list().map(({ id, hits }) => [id, hits])).toEqual([
      ['old', 1],
      ['posts', 1],
    ]);
  });

  it('retires a stub on its last answer, so the next request falls through at once', () => {
    const table = new StubTable();
    table.add('twice', { ...SPEC, times: 2 });
    expect(table.claim('GET', 'http://h/api/a')).toMatchObject({ spent: false });
    expect(table.claim('GET', 'http://h/api/a')).toMatchObject({
      spent: true,
      stub: { hits: 2, active: false },
    });
    expect(table.claim('GET', 'http://h/api/a')).toBeUndefined();
    expect(table.active()).toEqual([]);
  });

  it(`keeps at most ${MAX_STUBS} stubs: spent ones make room oldest first, past that many active ones a stub is refused`, () => {
    const table = new StubTable();
    table.add('spent', { ...SPEC, times: 1 });
    table.claim('GET', 'http://h/api/a');
    for (let stub = 1; stub < MAX_STUBS; stub += 1) table.add(`s${stub}`, SPEC);
    table.add('last', SPEC);
    expect(table.list()).toHaveLength(MAX_STUBS);
    expect(table.list().map(({ id }) => id)).not.toContain('spent');
    expect(() => table.add('one-too-many', SPEC)).toThrow(
      expect.objectContaining({ code: 'STUB_LIMIT', details: { limit: MAX_STUBS } }),
    );
    expect(table.list()).toHaveLength(MAX_STUBS);
  });

  it('removes a stub as inactive, keeping its hits', () => {
    const table = new StubTable();
    table.add('s', SPEC);
    table.claim('GET', 'http://h/api/a');
    expect(table.remove('s')).toMatchObject({ hits: 1, active: false });
    expect(table.remove('s')).toBeUndefined();
    expect(table.list()).toEqual([]);
  });
});

describe('cdpUrlPattern', () => {
  it('keeps `*` and widens the characters CDP reads as wildcard or escape to one character', () => {
    expect(cdpUrlPattern('*/api/ping?n=*')).toBe('*/api/ping?n=*');
    expect(cdpUrlPattern('http://h/a\\b')).toBe('http://h/a?b');
  });
});
