import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { TargetQuery } from '../../contract/window-driver.js';
import { PageDriver } from '../page/page-driver.js';
import { isHandle, type Resolved, resolveTarget } from '../targets/target-resolution.js';
import { perform } from './page-actions.js';

const PAGE = new URL('../../../fixtures/pages/controls.html', import.meta.url).href;
const noKeys = async () => null;
let page: Page;
useSharedPage((opened) => {
  page = opened;
});
beforeEach(() => page.goto(PAGE));

/**
 * How long a target that is there and actionable may take to resolve and act on: a safety net, since a
 * loaded machine takes seconds over what a quiet one does at once; only waits meant to run out are short.
 */
const ACTIONABLE_WAIT_MS = 30_000;
const resolve = (query: TargetQuery, timeoutMs = ACTIONABLE_WAIT_MS) =>
  resolveTarget(page, query, timeoutMs, noKeys);
const status = () => page.locator('#status').textContent();
const inPage = <T>(element: Resolved, read: (node: Element) => T): Promise<T> =>
  isHandle(element) ? element.evaluate(read) : element.evaluate(read);

describe('target resolution', () => {
  it.each<[string, TargetQuery]>([
    ['test id', { spec: { kind: 'testId', testId: 'name' } }],
    ['selector', { spec: { kind: 'selector', selector: '[data-testid=name]' } }],
    ['role and name (via its label)', { spec: { kind: 'role', role: 'textbox', name: 'Name' } }],
  ])('finds one element by %s', async (_kind, query) => {
    const element = await resolve(query);
    expect(await inPage(element, (node) => node.getAttribute('data-testid'))).toBe('name');
  });

  it('lists the candidates when a target is ambiguous, and `nth` or `within` picks one', async () => {
    const query: TargetQuery = { spec: { kind: 'role', role: 'button', name: 'Delete' } };
    await expect(resolve(query)).rejects.toMatchObject({ code: 'AMBIGUOUS_TARGET', details: { count: 3 } });
    await perform(page, await resolve({ ...query, nth: 1 }), { type: 'click' }, ACTIONABLE_WAIT_MS, 'Delete');
    expect(await status()).toBe('clicked Delete 1');
    const within = await resolve({
      ...query,
      within: { spec: { kind: 'role', role: 'region', name: 'Other' } },
    });
    expect(await inPage(within, (node) => node.closest('section')?.getAttribute('aria-label'))).toBe('Other');
  });

  it('says SELECTOR_NO_MATCH after the bounded wait', async () => {
    await expect(resolve({ spec: { kind: 'testId', testId: 'missing' } }, 200)).rejects.toMatchObject({
      code: 'SELECTOR_NO_MATCH',
    });
  });
});

describe('actions', () => {
  const act = async (testId: string, action: Parameters<typeof perform>[2], timeoutMs = ACTIONABLE_WAIT_MS) =>
    perform(page, await resolve({ spec: { kind: 'testId', testId } }), action, timeoutMs, testId);

  it('fills, types real keystrokes, checks, selects and uploads', async () => {
    await act('name', { type: 'fill', value: 'Ada' });
    await act('name', { type: 'type', text: 'xy' });
    expect(await page.getByTestId('name').inputValue()).toBe('Adaxy');
    expect(await page.locator('#keys').textContent()).toBe('xy');
    await act('agree', { type: 'setChecked', checked: true });
    expect(await page.getByTestId('agree').isChecked()).toBe(true);
    await act('color', { type: 'selectOption', labels: ['Green'] });
    expect(await page.getByTestId('color').inputValue()).toBe('g');
    await act('file', { type: 'setInputFiles', paths: [fileURLToPath(PAGE)] });
    expect(await page.getByTestId('file').evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
      'controls.html',
    );
    await act('name', { type: 'clear' });
    expect(await page.getByTestId('name').inputValue()).toBe('');
  });

  it('double-clicks, scrolls a far element into view, and drags', async () => {
    const far = await resolve({ spec: { kind: 'role', role: 'button', name: 'Far away' } });
    await perform(page, far, { type: 'scrollIntoView' }, ACTIONABLE_WAIT_MS, 'far');
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(2_000);
    await perform(page, far, { type: 'click', clickCount: 2 }, ACTIONABLE_WAIT_MS, 'far');
    expect(await status()).toBe('clicked Far away 2');
    await act('drag', { type: 'dragTo', to: await resolve({ spec: { kind: 'testId', testId: 'drop' } }) });
    expect(await page.getByTestId('drop').textContent()).toBe('Dropped');
  });

  /**
   * How long a click waits on a target that never becomes actionable: long enough that a loaded machine
   * gets through Playwright's first actionability check, which is what names the reason (at 300 ms a CI
   * run once timed out before it, and reported a bare ACTION_TIMEOUT).
   */
  const NEVER_ACTIONABLE_WAIT_MS = 5_000;

  it('reports a disabled target as ELEMENT_DISABLED once the wait runs out', async () => {
    await expect(act('disabled', { type: 'click' }, NEVER_ACTIONABLE_WAIT_MS)).rejects.toMatchObject({
      code: 'ELEMENT_DISABLED',
    });
  });

  it('reports a covered target as ELEMENT_OBSCURED naming what covers it', async () => {
    const failure = act('covered', { type: 'click' }, NEVER_ACTIONABLE_WAIT_MS);
    await expect(failure).rejects.toMatchObject({ code: 'ELEMENT_OBSCURED' });
    await expect(failure).rejects.toThrow(/overlay/);
  });

  it('refuses to fill what is not editable', async () => {
    await expect(act('drop', { type: 'fill', value: 'x' }, NEVER_ACTIONABLE_WAIT_MS)).rejects.toMatchObject({
      code: 'ELEMENT_NOT_EDITABLE',
    });
  });
});

describe('a driver acting on a locator it does not count first', () => {
  const driver = () => new PageDriver(page);
  const click = { type: 'click' } as const;

  it('acts on the one element, and on the nth of several', async () => {
    await driver().act(
      { spec: { kind: 'selector', selector: 'button.item' }, nth: 1 },
      click,
      ACTIONABLE_WAIT_MS,
    );
    expect(await status()).toBe('clicked Delete 1');
  });

  it('says AMBIGUOUS_TARGET, listing the candidates, when several match', async () => {
    const failure = driver().act(
      { spec: { kind: 'text', text: 'Delete', exact: true } },
      click,
      ACTIONABLE_WAIT_MS,
    );
    await expect(failure).rejects.toMatchObject({ code: 'AMBIGUOUS_TARGET', details: { count: 3 } });
    expect(await status()).not.toContain('clicked');
  });

  it('says SELECTOR_NO_MATCH when nothing matches within the wait, and for an nth past the matches', async () => {
    await expect(
      driver().act({ spec: { kind: 'testId', testId: 'missing' } }, click, 300),
    ).rejects.toMatchObject({
      code: 'SELECTOR_NO_MATCH',
      details: { target: { kind: 'testId', testId: 'missing' } },
    });
    await expect(
      driver().act({ spec: { kind: 'selector', selector: 'button.item' }, nth: 5 }, click, 300),
    ).rejects.toMatchObject({ code: 'SELECTOR_NO_MATCH' });
  });

  it('keeps an actionability failure as it is: a timed-out click on a disabled button', async () => {
    // As the perform tests above: long enough for a loaded machine to see the button at least once.
    await expect(
      driver().act({ spec: { kind: 'testId', testId: 'disabled' } }, click, 5_000),
    ).rejects.toMatchObject({ code: 'ELEMENT_DISABLED' });
  });
});
