import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument } from './generated/graphql.js';
import { launchChromium } from './helpers/browser.js';
import { type FixtureSession, startFixtureSession } from './helpers/fixture-session.js';
import { http, type RunningGateway, startGateway } from './helpers/gateway.js';

/**
 * The observer page in a real headless Chromium: signed in without a token on a loopback gateway with
 * the fixture app running, and with a token on a gateway that requires one. Every request the page
 * makes is recorded: none may leave the gateway's origin.
 */

const AGENT_TOKEN = 'observer-page-agent-token';

let fixture: FixtureSession;
let tokenGateway: RunningGateway;
let browser: Browser;
const foreign: string[] = [];
const pageProblems: string[] = [];

/** A fresh context (its own sessionStorage) at 1280x800 that records requests leaving `origin`. */
async function openPage(origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:')
      return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('websocket', (socket) => {
    const url = new URL(socket.url());
    if (url.host !== new URL(origin).host || url.pathname !== '/graphql') foreign.push(socket.url());
  });
  page.on('pageerror', (error) => pageProblems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text()))
      pageProblems.push(`console: ${message.text()}`);
  });
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  return { context, page };
}

const originOf = (gateway: RunningGateway) => new URL(gateway.url).origin;

/** Presses Tab until `target` has focus (bounded), as a keyboard user would reach it. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, presses = 60): Promise<void> {
  for (let press = 0; press < presses; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

beforeAll(async () => {
  [fixture, tokenGateway, browser] = await Promise.all([
    startFixtureSession(),
    startGateway({ token: AGENT_TOKEN }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([fixture?.stop(), tokenGateway?.stop()]);
});

describe('observer page, loopback without a token', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await openPage(originOf(fixture.gateway)));
  });
  afterAll(() => context?.close());

  it('signs in without a token and shows the role, what it may do, and the connection', async () => {
    await page.getByRole('button', { name: 'Sign in without a token' }).click();
    const banner = page.getByRole('banner');
    await expect.poll(() => banner.textContent()).toContain('Anonymous (loopback)');
    expect(await banner.textContent()).toMatch(/may read and watch, act/);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('connected');
    // Kept in the page's memory only: never in web storage, a cookie or the URL.
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(page.url()).not.toMatch(/token/i);
  });

  it('lists the fixture session live, with its status, app, transport and windows', async () => {
    const link = page.getByRole('link', { name: `Open session ${fixture.sessionId}` });
    await link.waitFor();
    const row = page.getByRole('row').filter({ has: link });
    await expect.poll(() => row.textContent()).toContain('RUNNING');
    const text = await row.textContent();
    expect(text).toContain('playwright-electron');
    expect(text).toContain('Stagegraph Fixture');
    expect(text).toContain('SNAPSHOT');
  });

  it('opens the session by keyboard: console tail, step trace and outline', async () => {
    await tabTo(page, page.getByRole('link', { name: `Open session ${fixture.sessionId}` }));
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: `Session ${fixture.sessionId}`, level: 2 });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);

    const consoleTail = page.getByRole('region', { name: 'Console', exact: true });
    await expect.poll(() => consoleTail.getByRole('table').textContent()).toContain('fixture: started');

    const trace = page.getByRole('region', { name: 'Step trace' });
    // The fixture session clicked "Stop ticking" before the page opened: read from the trail.
    await expect.poll(() => trace.getByRole('table').textContent()).toMatch(/click[\s\S]*stop.ticking/i);

    const outline = page.getByRole('region', { name: /^Accessibility outline of / });
    await expect.poll(() => outline.textContent()).toMatch(/button "Log to console"/);
  });

  it('follows the agent live: a new console line and a new step as they happen', async () => {
    await fixture.data(ClickDocument, { target: { testId: 'log' } });
    const consoleTail = page.getByRole('region', { name: 'Console', exact: true });
    await expect
      .poll(() => consoleTail.getByRole('table').textContent())
      .toContain('fixture: button clicked');
    const trace = page.getByRole('region', { name: 'Step trace' });
    await expect.poll(() => trace.getByRole('table').textContent()).toContain('Log to console');
    expect(await consoleTail.textContent()).toContain('none dropped');
  });

  it('says when a step acted on words read by OCR from the screen', async () => {
    await fixture.data(
      `mutation { hover(target: { query: "testId=no-such-id ?? ocr:'Fetch data'" }) { resolvedBy { strategy } } }`,
    );
    const trace = page.getByRole('region', { name: 'Step trace' });
    const step = trace.getByRole('row').filter({ hasText: 'hover' }).last();
    await expect.poll(() => step.textContent()).toMatch(/ocr text.*Fetch data.*read by OCR from the screen/);
  });

  it('reads the outline again when snapshotChanges reports a change', async () => {
    const outline = page.getByRole('region', { name: /^Accessibility outline of / });
    expect(await outline.textContent()).not.toContain('Task 4');
    await fixture.data(ClickDocument, { target: { testId: 'add-task' } });
    await expect.poll(() => outline.textContent()).toContain('Task 4');
  });

  it('filters a tail by text, operated from the keyboard', async () => {
    const filter = page.getByRole('searchbox', { name: 'Filter console' });
    await tabTo(page, filter, 120);
    await page.keyboard.type('button clicked');
    const rows = page.getByRole('region', { name: 'Console', exact: true }).getByRole('row');
    // The header row and the one matching line.
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).textContent()).toContain('fixture: button clicked');
  });

  it('shows the live view where the gateway serves screencast', async (context) => {
    const subscriptions = await http<{ __type: { fields: { name: string }[] } }, Record<string, never>>(
      fixture.gateway.url,
      '{ __type(name: "Subscription") { fields { name } } }',
    );
    if (!subscriptions.data?.__type.fields.some((field) => field.name === 'screencast')) context.skip();
    const frame = page.getByRole('img', { name: /^Live view of / });
    await frame.waitFor();
    await expect
      .poll(() => frame.evaluate((image) => (image as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await frame.getAttribute('src')).toMatch(/^(blob|data):/);
  });

  it('stacks into one column at 640 wide, without scrolling sideways', async () => {
    await page.setViewportSize({ width: 640, height: 800 });
    try {
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(640);
      const grid = page.locator('.session-grid');
      const columns = await grid.evaluate((element) => getComputedStyle(element).gridTemplateColumns);
      expect(columns.split(' ')).toHaveLength(1);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('moves between sections with the navigation, marking the current one', async () => {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Audit' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => nav.getByRole('link', { name: 'Audit' }).getAttribute('aria-current'))
      .toBe('page');
    expect(await nav.getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBeNull();
    await nav.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('heading', { name: 'Sessions', level: 2 }).waitFor();
  });

  it('signs out, forgetting the sign-in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('textbox', { name: 'Token' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});

describe('observer page, a gateway that requires a token', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await openPage(originOf(tokenGateway)));
  });
  afterAll(() => context?.close());

  it('refuses a wrong token and says so on the sign-in form', async () => {
    await page.getByRole('textbox', { name: 'Token' }).fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/refused|UNAUTHENTICATED/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('refuses a token-less sign-in', async () => {
    await page.getByRole('button', { name: 'Sign in without a token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/refused|UNAUTHENTICATED/);
  });

  it('signs in with the agent token, kept out of the URL, web storage and cookies', async () => {
    const signIn = async () => {
      await page.getByRole('textbox', { name: 'Token' }).fill(AGENT_TOKEN);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('banner').textContent()).toContain('Agent');
    };
    await signIn();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('connected');
    await page.getByText('No sessions yet.').waitFor();
    expect(page.url()).not.toContain(AGENT_TOKEN);
    const kept = () =>
      page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(await kept()).not.toContain(AGENT_TOKEN);
    expect(JSON.stringify(await context.cookies())).not.toContain(AGENT_TOKEN);
    // In the page's memory only: a reload signs out, leaving nothing behind to sign back in with.
    await page.reload({ waitUntil: 'load' });
    await page.getByRole('textbox', { name: 'Token' }).waitFor();
    expect(await kept()).not.toContain(AGENT_TOKEN);
    await signIn();
  });

  it('shows the connection lost when the gateway goes away, and keeps trying', async () => {
    await tokenGateway.stop();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('reconnecting');
    expect(await page.getByRole('banner').textContent()).toContain('Agent');
  });
});

describe('observer page, requests', () => {
  it('made no request to any other origin, and raised no error or policy violation', () => {
    expect(foreign).toEqual([]);
    expect(pageProblems).toEqual([]);
  });
});
