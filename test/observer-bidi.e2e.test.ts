import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/browser.js';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import type { Loose } from './helpers/gateway-client.js';
import {
  APPROVER_TOKEN,
  approversWatching,
  type GovernedRun,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/**
 * An app whose window title and button name hold a right-to-left override (U+202E), shown on the
 * observer page: the override is a visible mark, and neither the app's string nor the page's own text
 * after it is laid out backwards — a button named "Delete \u202Etnuocca" must not read "Delete account"
 * on an approval card, and a title must not reverse the snapshot line's "nodes, read" after it.
 */

const RLO = '\u202E';
const TITLE = `Orders ${RLO}nepo`;
const BUTTON = `Delete ${RLO}tnuocca`;
const UI_TIMEOUT = 60_000;

let run: GovernedRun;
let folder: string;
let app: OutsideProcess;
let browser: Browser;
let page: Page;
let sessionId: string;
let click: Promise<Loose>;

/**
 * Where each character of `needle` is drawn, left edges in order of the text: increasing when it is laid
 * out left to right. Null when no one text node of `scope` holds it.
 */
function drawnAt(scope: Locator, needle: string): Promise<number[] | null> {
  return scope.evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      return [...wanted].map((_, index) => {
        const range = document.createRange();
        range.setStart(node, at + index);
        range.setEnd(node, at + index + 1);
        return range.getBoundingClientRect().left;
      });
    }
    return null;
  }, needle);
}

function expectLeftToRight(positions: number[] | null, what: string): void {
  expect(positions, what).not.toBeNull();
  const steps = (positions as number[]).slice(1).map((x, index) => x - (positions as number[])[index]!);
  expect(
    steps.every((step) => step > 0),
    `${what} drawn at ${positions?.join(', ')}`,
  ).toBe(true);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'stagegraph-bidi-'));
  const file = join(folder, 'app.html');
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><title>${TITLE}</title><button>${BUTTON}</button>`,
  );
  [run, app, browser] = await Promise.all([
    startGovernedRun({ approvalTimeoutMs: 120_000 }, { launch: false }),
    startDebuggableChromium(`file://${file}`),
    launchChromium(),
  ]);
  const { attach } = await run.agent.data(`mutation { attach(input: { port: ${app.port} }) { id } }`);
  sessionId = attach.id;
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(run.gateway.url.replace(/\/graphql$/, '/'));
  await page.getByLabel('Token').fill(APPROVER_TOKEN);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByText('Connection: connected').waitFor({ timeout: UI_TIMEOUT });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await run?.stop();
  await app?.kill();
  await run?.cleanup();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('app strings holding a right-to-left override, on the observer page', () => {
  it('shows the override in a window title as a mark, and lays out the text after it left to right', async () => {
    await page.evaluate((id) => {
      location.hash = `#/sessions/${encodeURIComponent(id)}`;
    }, sessionId);
    const line = page.locator('.outline .tail-counts');
    await line.filter({ hasText: 'nodes, read' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await line.textContent()).toContain('Orders ⟨U+202E⟩nepo');
    expectLeftToRight(await drawnAt(line, 'nodes, read'), 'the page’s own text after the title');
    expectLeftToRight(await drawnAt(line, 'nepo'), 'the title after its override');
    const mark = line.locator('bdi', { hasText: '⟨U+202E⟩' });
    expect(await mark.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
  });

  it('shows an approval card for a button named with an override as it is, not as "Delete account"', async () => {
    await approversWatching(run, 1, UI_TIMEOUT);
    click = run.agent.send(
      `mutation { click(session: "${sessionId}", target: { role: "button", name: ${JSON.stringify(BUTTON)} }) { target { name } } }`,
    );
    await page.evaluate(() => {
      location.hash = '#/approvals';
    });
    const card = page.getByRole('article', { name: /Delete/ });
    await card.waitFor({ timeout: UI_TIMEOUT });
    const heading = card.getByRole('heading');
    expect(await heading.textContent()).toContain('Delete ⟨U+202E⟩tnuocca');
    expectLeftToRight(await drawnAt(heading, 'tnuocca'), 'the name after its override');
    expect(
      await card.getByRole('button', { name: 'Approve once: click Delete ⟨U+202E⟩tnuocca' }).count(),
    ).toBe(1);
    // Nowhere on the page is an override left to act.
    expect(await page.evaluate(() => document.body.innerText.includes('\u202E'))).toBe(false);
    await card.getByRole('button', { name: /^Deny:/ }).click();
    expect((await click).errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
  });
});
