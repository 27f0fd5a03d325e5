import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { MatchedValue } from '../../contract/matcher.js';
import type { ExpectKind, Matcher, TargetQuery } from '../../contract/window-driver.js';
import { PageDriver } from '../page/page-driver.js';
import { elementForKey, snapshotDocument } from '../snapshot/page-snapshot.js';
import { NOW_MS, resolveTarget } from '../targets/target-resolution.js';
import { waitInPage } from './expectation-waiter.js';
import { waitForExpectation } from './page-expectation.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

/** A safety net for changes the page makes: a loaded machine never runs it out. */
const WAIT_MS = 30_000;
/** A matcher no value meets, to read the actual value of a wait that ends at once. */
const NEVER: Matcher = { equals: '\u0000never' };

const STATES_PAGE = `
  <style>.gone { display: none } .ghost { visibility: hidden } .flat { height: 0; overflow: hidden }</style>
  <p id="plain">Plain <b>bold</b> text</p>
  <p id="hidden-text" class="gone">gone text</p>
  <p id="ghost" class="ghost">ghost</p>
  <div id="flat" class="flat">flat</div>
  <div id="contents" style="display: contents"><span>inside contents</span></div>
  <div id="empty-contents" style="display: contents"></div>
  <details id="details"><summary>More</summary><p id="in-details">folded</p></details>
  <input id="name" value="Ada" />
  <textarea id="notes">Some notes</textarea>
  <select id="pick"><option value="a">A</option><option value="b" selected>B</option></select>
  <label id="label">Agree <input id="agree" type="checkbox" checked /></label>
  <input id="radio" type="radio" />
  <div id="aria-box" role="checkbox" aria-checked="true">Aria box</div>
  <div id="switch" role="switch" aria-checked="false">Switch</div>
  <button id="on">On</button>
  <button id="off" disabled>Off</button>
  <div aria-disabled="true"><div id="aria-off" role="button">Aria off</div><span id="aria-span">span</span></div>
  <fieldset disabled><legend><button id="in-legend">Legend</button></legend><button id="in-fieldset">Fs</button></fieldset>
  <div id="editable" contenteditable="true">Edit me</div>
  <svg id="svg" width="10" height="10"><rect width="10" height="10"></rect></svg>
  <span data-testid="twin">one</span><span data-testid="twin">two</span>
`;
const IDS = [
  'plain',
  'hidden-text',
  'ghost',
  'flat',
  'contents',
  'empty-contents',
  'in-details',
  'name',
  'notes',
  'pick',
  'label',
  'agree',
  'radio',
  'aria-box',
  'switch',
  'on',
  'off',
  'aria-off',
  'aria-span',
  'in-legend',
  'in-fieldset',
  'editable',
  'svg',
  'missing',
];
const KINDS: readonly ExpectKind[] = ['TEXT', 'VALUE', 'VISIBLE', 'HIDDEN', 'ENABLED', 'DISABLED', 'CHECKED'];

const fixturePage = (name: string) => new URL(`../../../fixtures/pages/${name}`, import.meta.url).href;
const byId = (id: string): TargetQuery => ({ spec: { kind: 'selector', selector: `#${id}` } });

/** The value the gateway's own wait (Playwright's calls) reads for this target right now. */
async function readThroughPlaywright(kind: ExpectKind, target: TargetQuery): Promise<MatchedValue> {
  const find = async () => {
    try {
      const element = await resolveTarget(page, target, NOW_MS, (_, spec) =>
        elementForKey(page, spec.key, spec.documentId),
      );
      const count = 'count' in element && target.nth === undefined ? await element.count() : 1;
      return { element, count };
    } catch (error) {
      return { element: null, count: (error as { details?: { count?: number } }).details?.count ?? 0 };
    }
  };
  try {
    return (await waitForExpectation(page, { kind, matcher: NEVER, find }, 0)).actual;
  } catch (error) {
    return (error as { details: { actual: MatchedValue } }).details.actual;
  }
}

async function readInPage(kind: ExpectKind, target: TargetQuery | undefined): Promise<MatchedValue> {
  const outcome = await waitInPage(page, { kind, matcher: NEVER, target }, 0);
  if (outcome.state === 'fallback') throw new Error(`fell back: ${outcome.reason}`);
  return outcome.actual;
}

async function keyTarget(role: string, name: string): Promise<TargetQuery> {
  const { nodes, documentId } = await snapshotDocument(page, {});
  const node = nodes.find((candidate) => candidate.role === role && candidate.name === name);
  if (!node) throw new Error(`no ${role} "${name}"`);
  return { spec: { kind: 'key', key: node.key, ref: `e${node.key}`, documentId } };
}

describe('expectations waited for inside the page', () => {
  beforeEach(() => page.setContent(STATES_PAGE));

  it('reads every kind as the Playwright calls it replaces read it', async () => {
    for (const id of IDS) {
      for (const kind of KINDS) {
        const label = `${kind} of #${id}`;
        expect(String(await readInPage(kind, byId(id))), label).toBe(
          String(await readThroughPlaywright(kind, byId(id))),
        );
      }
    }
  });

  it('resolves keys, roles, test ids and scopes as the gateway does, counts included', async () => {
    const targets: TargetQuery[] = [
      await keyTarget('button', 'On'),
      { spec: { kind: 'role', role: 'button', name: 'Off' } },
      { spec: { kind: 'role', role: 'button' } },
      { spec: { kind: 'role', role: 'button' }, nth: 2 },
      { spec: { kind: 'testId', testId: 'twin' } },
      { spec: { kind: 'testId', testId: 'twin' }, nth: 1 },
      { spec: { kind: 'selector', selector: 'button' }, within: byId('label') },
      { spec: { kind: 'selector', selector: 'span' }, within: { spec: { kind: 'testId', testId: 'twin' } } },
    ];
    for (const [index, target] of targets.entries()) {
      for (const kind of ['COUNT', 'TEXT', 'ENABLED'] as const) {
        expect(String(await readInPage(kind, target)), `${kind} of target ${index}`).toBe(
          String(await readThroughPlaywright(kind, target)),
        );
      }
    }
    expect(await readInPage('URL', undefined)).toBe(page.url());
    // The gateway's own wait resolves a scope with a 1 ms bound, which a loaded machine misses (count 0).
    // Playwright waits out its own timeout on a locator's nth past the end; the page answers at once.
    const pastEnd = { spec: { kind: 'testId', testId: 'twin' }, nth: 7 } as const;
    expect(await readInPage('COUNT', pastEnd)).toBe(1);
    expect(await readInPage('VISIBLE', pastEnd)).toBe(false);
    const fieldset = { spec: { kind: 'selector', selector: 'fieldset' } } as const;
    expect(await readInPage('COUNT', { spec: { kind: 'role', role: 'button' }, within: fieldset })).toBe(2);
  });

  it('wakes on a change made after it was armed, in one evaluation', async () => {
    const target = await keyTarget('button', 'On');
    await page.evaluate(() =>
      setTimeout(() => {
        (document.getElementById('on') as HTMLElement).textContent = 'changed';
      }, 150),
    );
    const outcome = await waitInPage(page, { kind: 'TEXT', matcher: { equals: 'changed' }, target }, WAIT_MS);
    expect(outcome).toEqual({ state: 'held', actual: 'changed' });
  });

  it('sees typing (input events), checking and visibility changes', async () => {
    const driver = new PageDriver(page);
    await page.evaluate(() =>
      setTimeout(() => {
        const name = document.getElementById('name') as HTMLInputElement;
        name.value = 'Grace';
        name.dispatchEvent(new Event('input', { bubbles: true }));
        (document.getElementById('radio') as HTMLInputElement).click();
        document.getElementById('hidden-text')?.classList.remove('gone');
      }, 100),
    );
    expect((await driver.expect('VALUE', { equals: 'Grace' }, byId('name'), WAIT_MS)).actual).toBe('Grace');
    expect((await driver.expect('CHECKED', {}, byId('radio'), WAIT_MS)).actual).toBe('true');
    expect((await driver.expect('VISIBLE', {}, byId('hidden-text'), WAIT_MS)).actual).toBe('true');
  });

  it('waits for a target that appears later, and a count to reach its bounds', async () => {
    const driver = new PageDriver(page);
    await page.evaluate(() =>
      setTimeout(() => {
        for (const text of ['three', 'four'])
          document.body.append(Object.assign(document.createElement('span'), { textContent: text }));
        document.body.lastElementChild?.setAttribute('data-testid', 'late');
      }, 100),
    );
    const late = { spec: { kind: 'testId', testId: 'late' } } as const;
    expect((await driver.expect('TEXT', { regex: '^fo+ur$' }, late, WAIT_MS)).actual).toBe('four');
    const spans = { spec: { kind: 'selector', selector: 'body > span' } } as const;
    expect((await driver.expect('COUNT', { min: 4, max: 4 }, spans, WAIT_MS)).actual).toBe('4');
  });

  it('fails at its deadline with EXPECTATION_FAILED and the last value it saw', async () => {
    const driver = new PageDriver(page);
    await page.evaluate(() => {
      (document.getElementById('plain') as HTMLElement).textContent = 'last';
    });
    await expect(driver.expect('TEXT', { equals: 'never' }, byId('plain'), 300)).rejects.toMatchObject({
      code: 'EXPECTATION_FAILED',
      details: { kind: 'TEXT', actual: 'last' },
    });
    await expect(driver.expect('VISIBLE', { not: true }, byId('on'), 200)).rejects.toMatchObject({
      code: 'EXPECTATION_FAILED',
      details: { actual: true },
    });
  });

  it('reads a ref whose element left as gone: hidden, with no text', async () => {
    const driver = new PageDriver(page);
    const target = await keyTarget('button', 'On');
    await page.evaluate(() => setTimeout(() => document.getElementById('on')?.remove(), 100));
    expect((await driver.expect('HIDDEN', {}, target, WAIT_MS)).actual).toBe('true');
    await expect(driver.expect('TEXT', { equals: 'On' }, target, 200)).rejects.toMatchObject({
      code: 'EXPECTATION_FAILED',
      details: { actual: '' },
    });
  });

  it('spans a navigation: the wait is armed again in the new document', async () => {
    const driver = new PageDriver(page);
    await page.goto(fixturePage('contact-form.html'));
    await page.evaluate((url) => setTimeout(() => location.assign(url), 150), fixturePage('controls.html'));
    const arrived = { spec: { kind: 'testId', testId: 'disabled' } } as const;
    expect((await driver.expect('DISABLED', {}, arrived, WAIT_MS)).actual).toBe('true');
    expect((await driver.expect('TITLE', { equals: 'Controls' }, undefined, WAIT_MS)).actual).toBe(
      'Controls',
    );
  });

  it('leaves text targets and Playwright selector syntax to the gateway, with the same answers', async () => {
    const text = { spec: { kind: 'text', text: 'Aria box' } } as const;
    expect((await waitInPage(page, { kind: 'TEXT', matcher: {}, target: text }, 0)).state).toBe('fallback');
    const playwrightSyntax = { spec: { kind: 'selector', selector: 'p:has-text("Plain")' } } as const;
    expect((await waitInPage(page, { kind: 'TEXT', matcher: {}, target: playwrightSyntax }, 0)).state).toBe(
      'fallback',
    );
    const driver = new PageDriver(page);
    expect((await driver.expect('TEXT', { contains: 'Plain' }, playwrightSyntax, WAIT_MS)).actual).toBe(
      'Plain bold text',
    );
    expect((await driver.expect('COUNT', { equals: '1' }, text, WAIT_MS)).actual).toBe('1');
  });
});
