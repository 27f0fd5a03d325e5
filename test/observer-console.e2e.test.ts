import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/browser.js';
import type { Loose } from './helpers/fixture-session.js';
import {
  APPROVER_TOKEN,
  approversWatching,
  type GovernedRun,
  OBSERVER_TOKEN,
  startGovernedRun,
  type TokenClient,
  tokenClient,
} from './helpers/governed-gateway.js';

/**
 * The observer console end to end: an agent (its own WebSocket and HTTP client) launches the fixture app
 * and acts; a person watches in a real headless Chromium, signed in as approver, sees the live frame
 * change, the steps, the console line, and answers the approval the agent's risky click asked for; signed
 * in as observer, the same card has no answer buttons and a forged answer is refused. The pages pass axe.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const CLICK_DELETE = 'mutation { click(target: { testId: "delete-account" }) { target { name } } }';

let run: GovernedRun;
let observerApi: TokenClient;
let browser: Browser;
let origin: string;

/** A fresh tab (its own sessionStorage) signed in with `token`; waits for the banner to name the role. */
async function signedIn(token: string, role: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page
    .getByRole('banner')
    .filter({ hasText: `Signed in as ${role}` })
    .waitFor({ timeout: 30_000 });
  return { context, page };
}

/** The live frame as the page decoded it: its size, whether it shows anything, and a digest of its pixels. */
async function liveFrame(
  image: Locator,
): Promise<{ width: number; height: number; distinct: number; digest: number }> {
  return image.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(img, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set<number>();
    let digest = 0;
    for (let index = 0; index < data.length; index += 4) {
      const pixel =
        ((data[index] as number) << 16) | ((data[index + 1] as number) << 8) | (data[index + 2] as number);
      if (colours.size < 64) colours.add(pixel);
      digest = (Math.imul(digest, 31) + pixel) | 0;
    }
    return { width: canvas.width, height: canvas.height, distinct: colours.size, digest };
  });
}

/** axe-core's violations on the page as it is now, by rule id and the first node's selector. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<Loose> } }).axe.run();
    return result.violations.map(
      (violation: Loose) => `${violation.id} (${violation.impact}): ${violation.nodes[0]?.target?.join(' ')}`,
    );
  });
  return violations;
}

beforeAll(async () => {
  [run, browser] = await Promise.all([
    startGovernedRun({ observerToken: OBSERVER_TOKEN, approvalTimeoutMs: 120_000 }),
    launchChromium(),
  ]);
  origin = new URL(run.gateway.url).origin;
  observerApi = tokenClient(run.gateway, OBSERVER_TOKEN);
});

afterAll(async () => {
  await browser?.close();
  await observerApi?.ws.dispose();
  await run?.stop();
  await run?.cleanup();
});

describe('the observer console, watching an agent and answering its approval', () => {
  let approver: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    approver = await signedIn(APPROVER_TOKEN, 'Approver');
  });
  afterAll(() => approver?.context.close());

  it('opens the agent session and shows a live frame that changes when the agent acts', async () => {
    const { page } = approver;
    await page.getByRole('link', { name: `Open session ${run.sessionId}` }).click();
    const image = page.getByRole('img', { name: /^Live view of / });
    await image.waitFor({ timeout: 30_000 });
    const before = await liveFrame(image);
    expect(before.width).toBeGreaterThan(100);
    expect(before.height).toBeGreaterThan(100);
    expect(before.distinct).toBeGreaterThan(4);

    await run.agent.data('mutation { fill(target: { testId: "name" }, value: "Ada Lovelace") { windowId } }');
    await expect
      .poll(async () => (await liveFrame(image)).digest, { timeout: 30_000 })
      .not.toBe(before.digest);
  });

  it('lists the steps the agent took, with their target and outcome', async () => {
    const trace = approver.page.getByRole('region', { name: 'Step trace' });
    await expect
      .poll(async () => (await trace.getByRole('row').allInnerTexts()).join('\n'), { timeout: 30_000 })
      .toMatch(/fill\s+textbox “Name”[\s\S]*ALLOW[\s\S]*OK/);
  });

  it('shows the console line the app logged when the agent clicked', async () => {
    await run.agent.data('mutation { click(target: { testId: "log" }) { windowId } }');
    const tails = approver.page.getByRole('region', { name: 'Tails' });
    await tails.getByRole('button', { name: /^Console/ }).click();
    await expect.poll(() => tails.innerText(), { timeout: 30_000 }).toContain('fixture: button clicked');
  });

  it('shows the approval the agent asks for, with its evidence; Approve in the page lets the click happen', async () => {
    const { page } = approver;
    await approversWatching(run, 1, 30_000);
    const click = run.agent.send(CLICK_DELETE);
    await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/^\(1\)/);
    await page.getByRole('link', { name: 'Approvals', exact: true }).click();
    const card = page.getByRole('article', { name: /click button “Delete account”/ });
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.innerText()).toMatch(/HIGH/);
    await card.getByRole('button', { name: 'Approve once: click Delete account' }).click();
    const answer = await click;
    expect(answer.errors).toBeUndefined();
    expect(answer.data.click.target.name).toBe('Delete account');
    await expect.poll(() => page.title(), { timeout: 30_000 }).not.toMatch(/^\(1\)/);
    await page.getByRole('link', { name: 'Sessions', exact: true }).click();
    await page.getByRole('link', { name: `Open session ${run.sessionId}` }).click();
    const shown = page
      .getByRole('region', { name: 'Step trace' })
      .getByRole('img', { name: /^The element the approver was shown for step \d+$/ });
    await shown.waitFor({ timeout: 30_000 });
    expect(await shown.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });

  it('passes an axe-core check on each view, at 1280x800 and at half that width', async () => {
    const { page } = approver;
    const found: string[] = [];
    for (const width of [1280, 640]) {
      await page.setViewportSize({ width, height: 800 });
      for (const view of ['Sessions', 'Approvals', 'Audit']) {
        await page.getByRole('link', { name: view, exact: true }).click();
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        found.push(...(await axeViolations(page)).map((violation) => `${view} at ${width}: ${violation}`));
      }
      await page.goto(`${origin}/#/sessions/${run.sessionId}`);
      await page.getByRole('img', { name: /^Live view of / }).waitFor({ timeout: 30_000 });
      found.push(...(await axeViolations(page)).map((violation) => `session at ${width}: ${violation}`));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the session view scrolls sideways at ${width}`).toBeLessThanOrEqual(0);
    }
    expect(found).toEqual([]);
  });
});

describe('the observer console, signed in as observer', () => {
  let watcher: { context: BrowserContext; page: Page };
  let approverPage: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    [watcher, approverPage] = await Promise.all([
      signedIn(OBSERVER_TOKEN, 'Observer'),
      signedIn(APPROVER_TOKEN, 'Approver'),
    ]);
  });
  afterAll(async () => {
    await watcher?.context.close();
    await approverPage?.context.close();
  });

  it('sees the pending card without answer buttons; a forged approve is refused; the approver denies', async () => {
    await approversWatching(run, 1, 30_000);
    const click = run.agent.send(CLICK_DELETE);
    const { page } = watcher;
    await page.getByRole('link', { name: 'Approvals', exact: true }).click();
    const card = page.getByRole('article', { name: /click button “Delete account”/ });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('button').count()).toBe(0);

    const { pendingApprovals } = await observerApi.data('query { pendingApprovals { id } }');
    expect(pendingApprovals).toHaveLength(1);
    const forged = await observerApi.failure(
      `mutation { approve(id: "${pendingApprovals[0].id}") { status } }`,
    );
    expect(forged.code).toBe('ROLE_FORBIDDEN');

    const approving = approverPage.page;
    await approving.getByRole('link', { name: 'Approvals', exact: true }).click();
    const approverCard = approving.getByRole('article', { name: /click button “Delete account”/ });
    await approverCard.getByLabel(/Reason for denying/).fill('not in this run');
    await approverCard.getByRole('button', { name: 'Deny: click Delete account' }).click();
    const answer = await click;
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'POLICY_DENIED' } });
    expect(answer.errors?.[0]?.message).toContain('not in this run');
    await card.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
