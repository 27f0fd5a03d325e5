import { chromium, type Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { startDebuggableChromium } from '../../../test/helpers/debuggable.js';
import type { TargetQuery } from '../../contract/window-driver.js';
import { PageDriver } from '../page/page-driver.js';

const PAGE = new URL('../../../fixtures/pages/controls.html', import.meta.url).href;
/** A safety net for actions on an actionable element, not a measure: a loaded machine takes seconds. */
const ACTIONABLE_WAIT_MS = 30_000;

let page: Page;
useSharedPage((opened) => {
  page = opened;
});
beforeEach(() => page.goto(PAGE));

/** The ref query of a button, as the gateway would build it from a snapshot. */
async function buttonRef(driver: PageDriver, name: string): Promise<TargetQuery> {
  const snapshot = await driver.snapshot({});
  const node = snapshot.nodes.find((candidate) => candidate.role === 'button' && candidate.name === name);
  if (!node) throw new Error(`no "${name}" button in the snapshot`);
  return { spec: { kind: 'key', key: node.key, ref: 'e1', documentId: snapshot.documentId } };
}

const farButton = (driver: PageDriver) => buttonRef(driver, 'Far away');

/** A button that says it was clicked in the top document's #status, appended wherever `place` puts it. */
const CLICK_REPORTER = (name: string) =>
  `const button = document.createElement('button');
   button.textContent = ${JSON.stringify(name)};
   button.onclick = () => { top.document.getElementById('status').textContent = 'clicked ' + button.textContent; };`;

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

  it('clicks a ref inside an open shadow root, where the found event is retargeted to its host', async () => {
    await page.evaluate(`{
      const host = document.createElement('div');
      document.body.append(host);
      ${CLICK_REPORTER('In the shadow')}
      host.attachShadow({ mode: 'open' }).append(button);
    }`);
    const driver = new PageDriver(page);
    const query = await buttonRef(driver, 'In the shadow');
    expect(await lookups(() => driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS))).toBe(0);
    expect(await status()).toBe('clicked In the shadow');
  });

  it('clicks a ref inside a same-origin iframe through a handle from its own frame', async () => {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe');
          frame.srcdoc = '<!doctype html><body></body>';
          frame.onload = () => resolve();
          document.body.append(frame);
        }),
    );
    await page.frames()[1]?.evaluate(`{ ${CLICK_REPORTER('In the frame')} document.body.append(button); }`);
    const driver = new PageDriver(page);
    const query = await buttonRef(driver, 'In the frame');
    await driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS);
    expect(await status()).toBe('clicked In the frame');
  });
});

describe('an action on a ref in a browser Playwright attached to over CDP', () => {
  it("clicks through a handle, the key engine being unknown to the browser's default context", async () => {
    const outside = await startDebuggableChromium(PAGE);
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${outside.port}`);
    try {
      const attached = browser.contexts()[0]?.pages()[0];
      if (!attached) throw new Error('the attached browser shows no page');
      await attached.waitForLoadState();
      const driver = new PageDriver(attached);
      const query = await farButton(driver);
      await driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS);
      await driver.act(query, { type: 'click' }, ACTIONABLE_WAIT_MS);
      expect(await attached.locator('#status').textContent()).toBe('clicked Far away 1');
    } finally {
      await browser.close();
      await outside.kill();
    }
  });
});
