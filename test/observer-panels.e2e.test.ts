import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/browser.js';
import type { Loose } from './helpers/gateway-client.js';
import { APPROVER_TOKEN, type GovernedRun, startGovernedRun } from './helpers/governed-gateway.js';

/** Generous: a loaded machine takes seconds to render what a quiet one shows at once. */
const UI_TIMEOUT = 60_000;
const CLICK_LOG = 'mutation { click(target: { testId: "log" }) { target { name } } }';
/** HIGH risk under the default policy ("delete" is a destructive word): the agent's click asks first. */
const CLICK_DELETE = 'mutation { click(target: { testId: "delete-account" }) { target { name } } }';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let run: GovernedRun;
let browser: Browser;
let page: Page;
/** Every URL the page requested: a token must never be in one. */
const requested: string[] = [];

beforeAll(async () => {
  [run, browser] = await Promise.all([startGovernedRun(), launchChromium()]);
  // Half of 1280: the panels must work at that width.
  page = await browser.newPage({ viewport: { width: 640, height: 800 } });
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(run.gateway.url.replace(/\/graphql$/, '/'));
  await page.getByLabel('Token').fill(APPROVER_TOKEN);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByText('Connection: connected').waitFor({ timeout: UI_TIMEOUT });
});

afterAll(async () => {
  await browser?.close();
  await run?.stop();
  await run?.cleanup();
});

/** axe-core's violations on the page as it is now, by rule id and the first node's selector. */
async function axeViolations(): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<Loose> } }).axe.run();
    return result.violations.map(
      (violation: Loose) => `${violation.id} (${violation.impact}): ${violation.nodes[0]?.target?.join(' ')}`,
    );
  });
}

/** The audit panel's row for a seq (its row header). */
const auditRow = (seq: number) =>
  page.getByRole('table', { name: /Audit records/ }).getByRole('row', { name: new RegExp(`^${seq} `) });

describe('the observer page: audit, artifacts and approvals panels in real Chromium', () => {
  it('lists the audit records of the agent’s actions, streams new ones in, and verifies the chain', async () => {
    await page.evaluate(() => {
      location.hash = '#/audit';
    });
    const table = page.getByRole('table', { name: /Audit records/ });
    // The agent launched the fixture app and clicked "stop ticking" before the page opened.
    await table.getByRole('cell', { name: 'launch', exact: true }).waitFor({ timeout: UI_TIMEOUT });
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'seq',
      'time',
      'client',
      'operation',
      'session',
      'target',
      'decision',
      'rule',
      'risk',
      'outcome',
      'errorCode',
      'durationMs',
    ]);
    const clickRow = table.getByRole('row').filter({ hasText: 'stop' }).filter({ hasText: 'click' });
    await clickRow.getByRole('cell', { name: 'OK', exact: true }).waitFor({ timeout: UI_TIMEOUT });

    // Written after the page read the trail: it must arrive through the audit subscription.
    await run.agent.data(CLICK_LOG);
    const { audit } = await run.approver.data('{ audit(first: 500) { edges { node { seq operation } } } }');
    const last = audit.edges.at(-1).node;
    expect(last.operation).toBe('click');
    await auditRow(last.seq).waitFor({ timeout: UI_TIMEOUT });

    await page.getByRole('button', { name: 'Verify chain' }).click();
    const status = page.locator('.verify-chain [role="status"]');
    await expect.poll(() => status.textContent(), { timeout: UI_TIMEOUT }).toContain('Chain ok');
    expect(await status.textContent()).toContain(`up to seq ${last.seq}`);

    // The filter narrows to one operation: launch rows leave the table.
    await page.getByLabel('Operations (comma-separated)').fill('launch');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    const cells = (name: string) => table.getByRole('cell', { name, exact: true }).count();
    await expect.poll(() => cells('click'), { timeout: UI_TIMEOUT }).toBe(0);
    expect(await cells('launch')).toBe(1);

    // At half width the panel itself does not overflow; the wide table scrolls inside its own region.
    const overflow = await page
      .getByRole('region', { name: /Audit records/ })
      .evaluate((region) => region.getBoundingClientRect().right - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    expect(await axeViolations()).toEqual([]);
  });

  it('shows the session’s run.jsonl as a table and a saved screenshot as an image', async () => {
    const session = run.sessionId!;
    await run.agent.data(CLICK_LOG);
    const saved = await run.approver.data(
      `{ session(id: "${session}") { activeWindow { screenshot(save: true) { path } } } }`,
    );
    const shotName = saved.session.activeWindow.screenshot.path.split('/').slice(-2).join('/');
    expect(shotName).toMatch(/^screenshots\/.+\.png$/);

    await page.evaluate((id) => {
      location.hash = `#/sessions/${encodeURIComponent(id)}`;
    }, session);
    const files = page.getByRole('table', { name: `Files of session ${session}` });
    await files.waitFor({ timeout: UI_TIMEOUT });

    await files.getByRole('button', { name: 'run.jsonl', exact: true }).click();
    const runLog = page.getByRole('table', { name: /^run\.jsonl, \d+ lines/ });
    await runLog.waitFor({ timeout: UI_TIMEOUT });
    expect(await runLog.getByRole('columnheader').allTextContents()).toEqual([
      'time',
      'source',
      'level',
      'window',
      'message',
    ]);
    await runLog
      .getByRole('row')
      .filter({ hasText: `session ${session} started by launch` })
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    const consoleLine = runLog.getByRole('row').filter({ hasText: 'fixture: button clicked' }).first();
    const [, source, , , message] = await consoleLine.getByRole('cell').allTextContents();
    expect(source).toBe('console');
    expect(message).toContain('fixture: button clicked');

    await files.getByRole('button', { name: shotName, exact: true }).click();
    const image = page.getByRole('img', { name: `Screenshot ${shotName}` });
    await image.waitFor({ timeout: UI_TIMEOUT });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: UI_TIMEOUT,
      })
      .toBeGreaterThan(0);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    await page
      .getByRole('link', { name: `Download ${shotName.split('/').at(-1)}` })
      .waitFor({ timeout: UI_TIMEOUT });

    expect(await axeViolations()).toEqual([]);

    // Artifacts are fetched with the token in a header: no URL the page asked for carries it.
    expect(requested.filter((url) => url.includes('/artifacts/')).length).toBeGreaterThan(0);
    expect(requested.filter((url) => url.includes(APPROVER_TOKEN))).toEqual([]);
  });

  it('shows a pending approval with its element crop and a countdown, passing axe; settled, it leaves with who and why', async () => {
    await page.evaluate(() => {
      location.hash = '#/approvals';
    });
    await page.getByText('No approval is waiting.').waitFor({ timeout: UI_TIMEOUT });
    // The page's approver stream makes the click wait for an answer instead of settling at once.
    await expect
      .poll(() => run.gateway.gateway.governance?.broker.approverCount ?? 0, { timeout: UI_TIMEOUT })
      .toBeGreaterThan(0);
    const click = run.agent.send(CLICK_DELETE);

    const card = page.getByRole('article', { name: /click button “Delete account”/ });
    await card.waitFor({ timeout: UI_TIMEOUT });
    await expect.poll(() => page.title(), { timeout: UI_TIMEOUT }).toMatch(/^\(1\) /);
    const crop = card.getByRole('img', { name: 'Element the agent wants to click: button Delete account' });
    await crop.waitFor({ timeout: UI_TIMEOUT });
    await expect
      .poll(() => crop.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: UI_TIMEOUT,
      })
      .toBeGreaterThan(0);
    expect(await card.getByRole('timer').textContent()).toMatch(/^Expires in \d/);
    const facts = await card.innerText();
    expect(facts).toContain('HIGH');
    expect(facts).toMatch(/Requested by\s+agent-/);
    expect(facts).toMatch(/Found\s+by a stable id/);
    for (const name of [
      'Approve once: click Delete account',
      'Approve for session: click Delete account',
      'Approve for this app: click Delete account',
      'Deny: click Delete account',
    ])
      await card.getByRole('button', { name, exact: true }).waitFor();
    await card.getByRole('textbox', { name: 'Reason for denying click Delete account' }).waitFor();
    expect(await axeViolations()).toEqual([]);

    // Answered elsewhere (another approver): the card leaves and the page says who settled it and why.
    const { pendingApprovals } = await run.approver.data('{ pendingApprovals { id } }');
    await run.approver.data(
      'mutation ($id: ID!) { deny(id: $id, reason: "answered elsewhere") { status } }',
      {
        id: pendingApprovals[0].id,
      },
    );
    const answer = await click;
    expect(answer.errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
    await card.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    const settled = page.getByRole('region', { name: 'Recently settled' });
    await expect
      .poll(() => settled.innerText(), { timeout: UI_TIMEOUT })
      .toMatch(/click Delete account — denied by approver-\w+: answered elsewhere/);
    await expect.poll(() => page.title(), { timeout: UI_TIMEOUT }).not.toMatch(/^\(\d+\) /);
  });
});
