import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../test/helpers/browser.js';
import type { TargetQuery } from '../contract/window-driver.js';
import { PageDriver } from './page-driver.js';

const PAGE = new URL('../../fixtures/pages/controls.html', import.meta.url).href;
/** A safety net for actions on an actionable element, not a measure: a loaded machine takes seconds. */
const ACTIONABLE_WAIT_MS = 30_000;

let page: Page;
useSharedPage((opened) => {
  page = opened;
});
beforeEach(() => page.goto(PAGE));

/** The ref query of the page's "Far away" button, as the gateway would build it from a snapshot. */
async function farButton(driver: PageDriver): Promise<TargetQuery> {
  const snapshot = await driver.snapshot({});
  const node = snapshot.nodes.find(
    (candidate) => candidate.role === 'button' && candidate.name === 'Far away',
  );
  if (!node) throw new Error('no "Far away" button in the snapshot');
  return { spec: { kind: 'key', key: node.key, ref: 'e1', documentId: snapshot.documentId } };
}

/** How many element handles the page is asked for while `run` runs. */
async function lookups(run: () => Promise<void>): Promise<number> {
  const original = page.evaluateHandle.bind(page);
  let count = 0;
  page.evaluateHandle = ((...args: Parameters<Page['evaluateHandle']>) => {
    count += 1;
    return original(...args);
  }) as Page['evaluateHandle'];
  try {
    await run();
  } finally {
    page.evaluateHandle = original;
  }
  return count;
}

const status = () => page.locator('#status').textContent();

describe("an action on a ref, by its key in Playwright's utility world", () => {
  it('locates and acts on the element with no element handle, previewed or not', async () => {
    const driver = new PageDriver(page);
    const query = await farButton(driver);
    const previewed = async () => {
      await driver.locate(query, ACTIONABLE_WAIT_MS);
      await driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS);
    };
    expect(await lookups(previewed)).toBe(0);
    expect(await status()).toBe('clicked Far away 1');
    await page.locator('#status').evaluate((status) => {
      status.textContent = '';
    });
    expect(await lookups(() => driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS))).toBe(0);
    expect(await status()).toBe('clicked Far away 1');
  });

  it('follows the element where it moved, since a ref names the element, not its place', async () => {
    const driver = new PageDriver(page);
    const query = await farButton(driver);
    await driver.locate(query, ACTIONABLE_WAIT_MS);
    await page.evaluate(() => document.body.prepend(document.getElementById('far') as HTMLElement));
    await driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS);
    expect(await status()).toBe('clicked Far away 1');
  });

  it('says REF_STALE at once when the element left the document after the preview', async () => {
    const driver = new PageDriver(page);
    const query = await farButton(driver);
    await driver.locate(query, ACTIONABLE_WAIT_MS);
    await page.evaluate(() => {
      const far = document.getElementById('far') as HTMLElement;
      far.replaceWith(far.cloneNode(true));
    });
    await expect(driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS)).rejects.toMatchObject({
      code: 'REF_STALE',
    });
    expect(await status()).toBe('');
  });
});
