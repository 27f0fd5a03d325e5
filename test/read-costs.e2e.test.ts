import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import {
  FIXTURE_HOSTS,
  type FixtureSession,
  type Loose,
  UNATTENDED_POLICY,
} from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/**
 * What a read costs, seen before paying it, and the reads for what an accessibility view does not cover:
 * the token estimate on its own, next actions in the outline form, ambiguous targets answered with refs.
 */
for (const host of FIXTURE_HOSTS) {
  describe(`read costs and page source on ${host.name}`, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    });
    afterAll(() => app?.stop());

    it('prices a snapshot by its outline when estimatedTokens is selected alone', async () => {
      const alone = await app.data('{ session { window { snapshot { estimatedTokens totalNodes } } } }');
      const paid = await app.data('{ session { window { snapshot { estimatedTokens outline } } } }');
      const { estimatedTokens } = alone.session.window.snapshot;
      const { outline } = paid.session.window.snapshot;
      expect(estimatedTokens).toBeGreaterThan(0);
      // The same page and form: the price seen before equals the price paid, about 4 characters a token.
      expect(estimatedTokens).toBe(paid.session.window.snapshot.estimatedTokens);
      expect(estimatedTokens).toBeGreaterThanOrEqual(outline.length / 4);
      expect(estimatedTokens).toBeLessThanOrEqual(
        outline.length / 4 + alone.session.window.snapshot.totalNodes,
      );
      const budgeted = await app.data(
        '{ session { window { snapshot(budgetTokens: 40) { estimatedTokens truncated } } } }',
      );
      expect(budgeted.session.window.snapshot).toMatchObject({ truncated: true });
      expect(budgeted.session.window.snapshot.estimatedTokens).toBeLessThanOrEqual(40);
    });

    it('answers an ambiguous target with its candidates by ref, and a candidate acts', async () => {
      const ambiguous = await app.failure(
        'mutation { click(target: { role: "button", name: "Done" }, timeoutMs: 10000) { elapsedMs } }',
      );
      expect(ambiguous.code).toBe('AMBIGUOUS_TARGET');
      expect(ambiguous.details.count).toBe(3);
      const { candidates } = ambiguous.details;
      expect(candidates).toHaveLength(3);
      for (const candidate of candidates) {
        expect(candidate).toMatchObject({
          ref: expect.stringMatching(/^e\d+$/),
          role: 'button',
          name: 'Done',
        });
      }
      expect(new Set(candidates.map((c: Loose) => c.ref)).size).toBe(3);
      expect(ambiguous.similarRefs.map((c: Loose) => c.ref)).toEqual(candidates.map((c: Loose) => c.ref));
      // The next action reads the outline, and the refs are the ones a snapshot shows for the same buttons.
      expect(ambiguous.nextActions[0]).toMatch(/snapshot\(interactiveOnly: true\) \{ outline \}/);
      const listed = await app.data(ambiguous.nextActions[0] as string);
      const outline: string = listed.session.window.snapshot.outline;
      for (const { ref } of candidates) expect(outline).toContain(`${ref} button "Done"`);
      await app.data(`mutation { click(target: { ref: "${candidates[1].ref}" }) { elapsedMs } }`);
      await app.data(
        'mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "Done: Review patch", timeoutMs: 20000) { actual } }',
      );
    });

    it("reads an element's HTML, cut with a marker and its whole length, without the typed password", async () => {
      await app.data('mutation { fill(target: { testId: "password" }, value: "hunter2") { elapsedMs } }');
      const form = await app.data(
        '{ session { window { html(target: { testId: "profile-form" }) { html length truncated } } } }',
      );
      const { html, length, truncated } = form.session.window.html;
      expect(html).toMatch(/^<form id="profile" data-testid="profile-form">/);
      expect(html).toContain('data-testid="password"');
      expect(html).not.toContain('hunter2');
      expect({ length, truncated }).toEqual({ length: html.length, truncated: false });
      const cut = await app.data(
        '{ session { window { html(target: { testId: "profile-form" }, outer: false, truncateAt: 40) { html length truncated } } } }',
      );
      const inner = cut.session.window.html;
      expect(inner.truncated).toBe(true);
      expect(inner.length).toBeGreaterThan(40);
      expect(inner.length).toBeLessThan(length);
      expect(inner.html).not.toContain('<form');
      expect(inner.html).toMatch(
        new RegExp(`<!-- stagegraph: truncated, ${inner.length - 40} more characters -->$`),
      );
      const page = await app.data('{ session { window { html(truncateAt: 1000000) { html truncated } } } }');
      expect(page.session.window.html.html).toContain('<title>Stagegraph Fixture</title>');
      const bad = await app.failure('{ session { window { html(truncateAt: -1) { html } } } }');
      expect(bad.code).toBe('BAD_INPUT');
    });

    it('reads textContent only where selected, a listing in one call, and null for a node read alone', async () => {
      const data = await app.data(
        '{ session { window { find(role: "list") { textContent children { role textContent } } } } }',
      );
      const [list] = data.session.window.find;
      expect(list.textContent).toContain('Write report');
      expect(list.children.map((item: Loose) => item.role)).toEqual(['listitem', 'listitem', 'listitem']);
      expect(list.children[1].textContent).toContain('Review patch');
      expect(list.children[1].textContent).not.toContain('Write report');
      const alone = await app.data(
        'mutation { focus(target: { testId: "name" }) { target { name textContent } } }',
      );
      expect(alone.focus.target).toEqual({ name: 'Name', textContent: null });
    });

    it('hints at unique test ids, role+name pairs and texts, each a target that finds one element', async () => {
      const data = await app.data(
        '{ session { window { selectorHints(first: 200) { kind testId role name text exact matches } } } }',
      );
      const hints: Loose[] = data.session.window.selectorHints;
      expect(hints.every((hint) => hint.matches === 1)).toBe(true);
      expect(hints).toContainEqual(
        expect.objectContaining({ kind: 'TEST_ID', testId: 'submit', role: null, matches: 1 }),
      );
      expect(hints).toContainEqual(
        expect.objectContaining({ kind: 'ROLE', role: 'button', name: 'Add task', testId: null }),
      );
      expect(hints).toContainEqual(expect.objectContaining({ kind: 'TEXT', text: 'Hover me', exact: true }));
      expect(hints.some((hint) => hint.name === 'Done')).toBe(false);
      const all = await app.data(
        '{ session { window { selectorHints(first: 200, uniqueOnly: false) { kind role name matches } } } }',
      );
      expect(all.session.window.selectorHints).toContainEqual({
        kind: 'ROLE',
        role: 'button',
        name: 'Done',
        matches: 3,
      });
      const few = await app.data('{ session { window { selectorHints(first: 3) { kind } } } }');
      expect(few.session.window.selectorHints).toHaveLength(3);
      // A hint is a ready target: the same fields, sent back as TargetInput, find exactly one element.
      for (const kind of ['TEST_ID', 'ROLE', 'TEXT']) {
        const { matches: _matches, kind: _kind, ...target } = hints.find((hint) => hint.kind === kind);
        const fields = Object.entries(target)
          .filter(([, value]) => value !== null)
          .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
          .join(', ');
        await app.data(
          `mutation { expect(kind: COUNT, target: { ${fields} }, equals: "1", timeoutMs: 20000) { actual } }`,
        );
      }
    });
  });
}

describe('page source on plain Chromium: secrets that are markup, text no accessibility view shows', () => {
  let gateway: RunningGateway;
  let app: GatewayClient;
  beforeAll(async () => {
    const page = new URL('../fixtures/pages/page-source.html', import.meta.url).href;
    gateway = await startGateway({ policyFile: UNATTENDED_POLICY }, [plainChromiumTransport(page)]);
    app = gatewayClient(gateway.url);
    await app.data(LaunchDocument, { input: { main: 'page-source.html' } });
  }, 120_000);
  afterAll(() => gateway?.stop());

  it('redacts a password value attribute and a secret typed into a contenteditable, in html and textContent', async () => {
    await app.data(
      'mutation { fill(target: { testId: "note" }, value: "typed-s3cret", secret: true) { elapsedMs } }',
    );
    const data = await app.data(
      '{ session { window { html(target: { testId: "login" }) { html } find(role: "textbox", name: "Note") { textContent } } } }',
    );
    const { html } = data.session.window.html;
    expect(html).toContain('name="user" value="ada"');
    expect(html).toContain('type="password" name="password" value="[redacted]"');
    expect(html).toContain('data-testid="note">[redacted]</div>');
    expect(html).not.toMatch(/preset-s3cret|typed-s3cret/);
    expect(data.session.window.find).toEqual([{ textContent: '[redacted]' }]);
    const page = await app.data('{ session { window { html { html } } } }');
    expect(page.session.window.html.html).not.toMatch(/preset-s3cret|typed-s3cret/);
  });

  it('reads hidden text through textContent, which `text` and names leave out', async () => {
    const data = await app.data('{ session { window { find(role: "heading") { name text textContent } } } }');
    const [heading] = data.session.window.find;
    expect(heading.name).not.toContain('internal-sku-42');
    expect(heading.textContent).toBe('Plan internal-sku-42');
  });

  it('answers a selector matching several elements with its candidates by ref, as for role targets', async () => {
    const ambiguous = await app.failure(
      'mutation { click(target: { selector: "ul button" }, timeoutMs: 10000) { elapsedMs } }',
    );
    expect(ambiguous.code).toBe('AMBIGUOUS_TARGET');
    expect(ambiguous.details).toMatchObject({
      count: 2,
      target: { kind: 'selector', selector: 'ul button' },
    });
    const refs = ambiguous.details.candidates.map((candidate: Loose) => candidate.ref);
    expect(ambiguous.details.candidates).toEqual(
      refs.map((ref: string) => ({ ref, role: 'button', name: 'Edit', testId: null })),
    );
    expect(new Set(refs).size).toBe(2);
    const node = await app.data(
      `{ session { window { node(ref: "${refs[1]}") { role name parent { role } } } } }`,
    );
    expect(node.session.window.node).toMatchObject({ role: 'button', name: 'Edit' });
  });

  it('hints only what is unique: the repeated Edit buttons and Row texts are left out', async () => {
    const data = await app.data(
      '{ session { window { selectorHints(first: 50) { kind testId role name text matches } } } }',
    );
    const hints: Loose[] = data.session.window.selectorHints;
    expect(hints.filter((hint) => hint.kind === 'TEST_ID').map((hint) => hint.testId)).toEqual([
      'login',
      'user',
      'password',
      'note',
      'sign-in',
    ]);
    expect(hints).toContainEqual(expect.objectContaining({ kind: 'ROLE', role: 'button', name: 'Sign in' }));
    expect(hints).toContainEqual(expect.objectContaining({ kind: 'ROLE', role: 'heading', name: 'Plan' }));
    expect(hints).toContainEqual(expect.objectContaining({ kind: 'TEXT', text: 'Visible words' }));
    expect(hints.some((hint) => hint.name === 'Edit' || hint.text === 'Row')).toBe(false);
  });
});
