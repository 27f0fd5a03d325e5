import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { type Expectation, waitForExpectation } from './page-expectation.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});
beforeEach(() =>
  page.setContent(
    '<p id="status">idle</p><input id="name" /><ul id="list"><li>a</li></ul><title>Before</title>',
  ),
);

const byId =
  (id: string): Expectation['find'] =>
  async () => {
    const locator = page.locator(`#${id}`);
    const count = await locator.count();
    return { element: count > 0 ? locator.first() : null, count };
  };

/**
 * The wait for a change the page makes: a safety net a loaded machine never runs out, so an expectation
 * that returns before it was woken by the change rather than by the deadline.
 */
const WAIT_MS = 30_000;

describe('expectations', () => {
  it('waits for text set later by the page, driven by the change', async () => {
    await page.evaluate(() =>
      setTimeout(() => (document.getElementById('status')!.textContent = 'done'), 150),
    );
    const result = await waitForExpectation(
      page,
      { kind: 'TEXT', matcher: { equals: 'done' }, find: byId('status') },
      WAIT_MS,
    );
    expect(result.actual).toBe('done');
    expect(result.elapsedMs).toBeGreaterThanOrEqual(100);
  });

  it('sees a value typed into an input (input events, not DOM mutations)', async () => {
    await page.evaluate(() =>
      setTimeout(() => {
        const input = document.getElementById('name') as HTMLInputElement;
        input.value = 'Ada Lovelace';
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, 50),
    );
    const result = await waitForExpectation(
      page,
      { kind: 'VALUE', matcher: { regex: '^Ada' }, find: byId('name') },
      WAIT_MS,
    );
    expect(result.actual).toBe('Ada Lovelace');
    // Woken by the input event: a wait blind to it would read the value only once the wait ran out.
    expect(result.elapsedMs).toBeLessThan(WAIT_MS);
  });

  it('counts with min and max, and waits for a URL and title change', async () => {
    await page.evaluate(() =>
      setTimeout(() => {
        for (const text of ['b', 'c'])
          document
            .getElementById('list')!
            .append(Object.assign(document.createElement('li'), { textContent: text }));
        history.pushState({}, '', '#/next');
        document.title = 'After';
      }, 50),
    );
    const items: Expectation['find'] = async () => {
      const count = await page.locator('#list li').count();
      return { element: null, count };
    };
    expect(
      (await waitForExpectation(page, { kind: 'COUNT', matcher: { min: 3, max: 3 }, find: items }, WAIT_MS))
        .actual,
    ).toBe('3');
    expect(
      (await waitForExpectation(page, { kind: 'URL', matcher: { contains: '#/next' } }, WAIT_MS)).actual,
    ).toContain('#/next');
    expect(
      (await waitForExpectation(page, { kind: 'TITLE', matcher: { equals: 'After' } }, WAIT_MS)).actual,
    ).toBe('After');
  });

  it('fails with EXPECTATION_FAILED and the last actual value', async () => {
    const failure = waitForExpectation(
      page,
      { kind: 'TEXT', matcher: { equals: 'never' }, find: byId('status') },
      300,
    );
    await expect(failure).rejects.toMatchObject({ code: 'EXPECTATION_FAILED', details: { actual: 'idle' } });
  });

  it('treats a missing element as hidden and `not` inverts', async () => {
    expect(
      (await waitForExpectation(page, { kind: 'HIDDEN', matcher: {}, find: byId('nothing') }, 300)).actual,
    ).toBe('true');
    await expect(
      waitForExpectation(page, { kind: 'VISIBLE', matcher: { not: true }, find: byId('status') }, 200),
    ).rejects.toMatchObject({
      code: 'EXPECTATION_FAILED',
    });
  });
});
