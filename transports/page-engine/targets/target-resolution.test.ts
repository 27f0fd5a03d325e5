import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { directLocator } from './target-resolution.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

describe('directLocator', () => {
  beforeAll(() =>
    page.setContent(
      '<main><button data-testid="save">Save</button><p>one</p><p>two</p></main><aside><p>three</p></aside>',
    ),
  );

  it('finds a test id, a selector or a text from the top of the page, nth applied', async () => {
    const texts = (query: Parameters<typeof directLocator>[1]) =>
      directLocator(page, query)?.allTextContents() ?? Promise.resolve(null);
    expect(await texts({ spec: { kind: 'testId', testId: 'save' } })).toEqual(['Save']);
    expect(await texts({ spec: { kind: 'selector', selector: 'p' } })).toEqual(['one', 'two', 'three']);
    expect(await texts({ spec: { kind: 'selector', selector: 'p' }, nth: 2 })).toEqual(['three']);
    expect(await texts({ spec: { kind: 'text', text: 'two', exact: true } })).toEqual(['two']);
  });

  it('leaves refs, roles and scoped queries to resolution', () => {
    const key = { kind: 'key', key: 3, ref: 'e3', documentId: 'd' } as const;
    expect(directLocator(page, { spec: key })).toBeNull();
    expect(directLocator(page, { spec: { kind: 'role', role: 'button', name: 'Save' } })).toBeNull();
    const within = { spec: { kind: 'selector', selector: 'aside' } } as const;
    expect(directLocator(page, { spec: { kind: 'selector', selector: 'p' }, within })).toBeNull();
  });
});
