import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import type { Loose } from './helpers/fixture-session.js';
import {
  APPROVER_TOKEN,
  approversWatching,
  type GovernedRun,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/**
 * Stagegraph keeps off its own observer page: a person signs in as approver in a Chromium with a DevTools
 * port; the agent attaches to that browser through the gateway and may neither read the approval controls
 * (a read would show it what the approver sees, and where to click) nor act on them: an agent that could
 * click "Approve" there would answer its own request around the approver.
 */

let run: GovernedRun;
let outside: OutsideProcess;
let person: Browser;
let page: Page;
let observed: string;

beforeAll(async () => {
  run = await startGovernedRun({ approvalTimeoutMs: 120_000 });
  outside = await startDebuggableChromium(`${new URL(run.gateway.url).origin}/`);
  person = await chromium.connectOverCDP(`http://127.0.0.1:${outside.port}`);
  page = person.contexts()[0]?.pages()[0] as Page;
  await page.getByLabel('Token').fill(APPROVER_TOKEN);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByRole('banner').filter({ hasText: 'Signed in as Approver' }).waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Approvals', exact: true }).click();
  const { attach } = await run.agent.data(
    `mutation { attach(input: { port: ${outside.port}, titleContains: "Stagegraph" }) { id transport } }`,
  );
  observed = attach.id;
});

afterAll(async () => {
  await person?.close();
  await run?.stop();
  await outside?.kill();
  await run?.cleanup();
});

describe('the gateway keeping off its own observer page', () => {
  let click: Promise<Loose>;

  it('refuses to read the approval controls by role and name', async () => {
    await approversWatching(run, 1, 30_000);
    click = run.agent.send(
      `mutation { click(session: "${run.sessionId}", target: { testId: "delete-account" }) { target { name } } }`,
    );
    await page.getByRole('article', { name: /click button “Delete account”/ }).waitFor({ timeout: 30_000 });
    const read = await run.agent.send(
      `query { session(id: "${observed}") { activeWindow { title
        approve: find(role: "button", nameContains: "Approve once") { ref name }
        outline: snapshot { outline } } } }`,
    );
    // Both reads are refused; how many of them report depends on the executor (graphql-js stops reporting a
    // sibling once a non-null field has nulled their window, graphql-jit reports both).
    const codes = read.errors?.map((error) => error.extensions?.code) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['POLICY_DENIED']));
    expect(read.data?.session?.activeWindow ?? null).toBeNull();
    expect(read.errors?.[0]?.extensions?.details).toMatchObject({
      rule: { id: 'built-in:not-on-own-pages' },
    });
    expect(JSON.stringify(read)).not.toContain('Approve once');
  });

  it('refuses to act on its own page, so the agent cannot approve its own request', async () => {
    const refused = await run.agent.failure(
      `mutation { click(session: "${observed}", target: { role: "button", name: "Approve once: click Delete account" }) { windowId } }`,
    );
    expect(refused).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: { id: 'built-in:not-on-own-pages' } },
    });
    expect((await run.approver.data('query { pendingApprovals { id } }')).pendingApprovals).toHaveLength(1);

    await page.getByRole('button', { name: 'Deny: click Delete account' }).click();
    const answer = await click;
    expect(answer.errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
  });
});
