import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { type RawNode, REDACTED_VALUE } from '../../contract/window-driver.js';
import {
  describeElement,
  describeLocated,
  elementForKey,
  markSecret,
  snapshotDocument,
} from './page-snapshot.js';

const fixture = (name: string) => new URL(`../../../fixtures/pages/${name}`, import.meta.url).href;

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

/** The first node named `name`, skipping text nodes (a label's text shares its control's name). */
const byName = (nodes: readonly RawNode[], name: string) => {
  const found =
    nodes.find((node) => node.name === name && node.role !== 'text') ??
    nodes.find((node) => node.name === name);
  if (!found) throw new Error(`no node named ${name}`);
  return found;
};

describe('roles, states and values (strict CSP page)', () => {
  beforeAll(() => page.goto(fixture('snapshot-states.html')));

  it('reads roles, levels, states and values, and merges text across inline elements', async () => {
    const { nodes } = await snapshotDocument(page, {});
    expect(nodes[0]).toMatchObject({ role: 'document', name: 'Roles and states', parent: null });
    expect(byName(nodes, 'Account')).toMatchObject({ role: 'heading', level: 3 });
    expect(byName(nodes, 'Plain text with bold words in it.').role).toBe('text');
    expect(byName(nodes, 'User')).toMatchObject({ role: 'textbox', value: 'ada', states: ['REQUIRED'] });
    expect(byName(nodes, 'Locked action').states).toContain('DISABLED');
    expect(byName(nodes, 'Bold').states).toContain('PRESSED');
    expect(byName(nodes, 'Menu').states).toContain('COLLAPSED');
    expect(byName(nodes, 'Read only').states).toContain('READONLY');
    expect(byName(nodes, 'Tags')).toMatchObject({ role: 'listbox', value: 'One' });
    expect(byName(nodes, 'One')).toMatchObject({ role: 'option', states: ['SELECTED'], interactive: false });
    expect(byName(nodes, 'Upload')).toMatchObject({ role: 'progressbar', value: '40' });
    expect(byName(nodes, 'Notes')).toMatchObject({ interactive: true, value: 'Some notes' });
    expect(byName(nodes, 'Nested item').parent).toBe(
      nodes.find((node) => node.role === 'listitem' && node.level === 2)?.key,
    );
    const roles = nodes.map((node) => node.role);
    expect(roles).toEqual(
      expect.arrayContaining(['banner', 'main', 'form', 'status', 'separator', 'contentinfo']),
    );
    // header/footer inside an article are not page landmarks.
    expect(roles.filter((role) => role === 'banner' || role === 'contentinfo')).toHaveLength(2);
  });

  it('redacts password fields and keys marked secret', async () => {
    let { nodes } = await snapshotDocument(page, {});
    expect(byName(nodes, 'Password')).toMatchObject({ value: REDACTED_VALUE, secret: true });
    await markSecret(page, byName(nodes, 'Token').key);
    ({ nodes } = await snapshotDocument(page, {}));
    expect(byName(nodes, 'Token')).toMatchObject({ value: REDACTED_VALUE, secret: true });
    expect(JSON.stringify(nodes)).not.toMatch(/hunter2|tok-123/);
  });

  it('reports the focused element and the bbox of a known element', async () => {
    await page.focus('#focusable');
    const { nodes } = await snapshotDocument(page, {});
    expect(nodes.filter((node) => node.states.includes('FOCUSED')).map((node) => node.key)).toEqual([
      nodes.find((node) => node.role === 'generic' && node.interactive && node.name === '')?.key,
    ]);
    // The box is absolutely placed at (100, 500); its text starts at the box's corner.
    expect(byName(nodes, 'Box text').bbox).toMatchObject({ x: 100, y: 500 });
  });

  it('honours interactiveOnly, within and depth', async () => {
    const full = await snapshotDocument(page, {});
    const only = await snapshotDocument(page, { interactiveOnly: true });
    expect(only.nodes[0]?.role).toBe('document');
    expect(only.nodes.slice(1).every((node) => node.interactive)).toBe(true);
    expect(only.nodes.slice(1).every((node) => node.parent === only.nodes[0]?.key)).toBe(true);
    expect(only.nodes.map((node) => node.key)).toEqual(
      full.nodes.filter((node, index) => index === 0 || node.interactive).map((node) => node.key),
    );
    const form = byName(full.nodes, 'Login');
    const within = await snapshotDocument(page, { within: form.key });
    expect(within.nodes[0]).toMatchObject({ key: form.key, role: 'form', parent: null });
    expect(within.nodes.map((node) => node.name)).toContain('Locked action');
    expect(within.nodes.map((node) => node.name)).not.toContain('Account');
    const shallow = await snapshotDocument(page, { depth: 1 });
    const rootKey = shallow.nodes[0]?.key;
    expect(shallow.nodes.slice(1).every((node) => node.parent === rootKey)).toBe(true);
    expect(shallow.nodes.map((node) => node.role)).toEqual(['document', 'banner', 'main', 'contentinfo']);
  });

  it('describes one element as the walker would', async () => {
    const { nodes } = await snapshotDocument(page, {});
    const handle = await page.$('#locked');
    if (!handle) throw new Error('missing #locked');
    const described = await describeElement(page, handle);
    expect(described.node).toEqual(byName(nodes, 'Locked action'));
  });

  it('describes the one element a locator matches in one call, and answers null for none or several', async () => {
    const { nodes } = await snapshotDocument(page, {});
    const described = await describeLocated(page.locator('#locked'));
    expect(described?.node).toEqual(byName(nodes, 'Locked action'));
    expect(await describeLocated(page.locator('#no-such-element'))).toBeNull();
    expect(await describeLocated(page.locator('button'))).toBeNull();
  });
});

describe('keys and documents', () => {
  it('keeps keys across unrelated changes, reports a re-created element as detached, renews the id on reload', async () => {
    await page.goto(fixture('snapshot-accname.html'));
    const first = await snapshotDocument(page, {});
    await page.evaluate(() =>
      document.body.append(Object.assign(document.createElement('p'), { textContent: 'new' })),
    );
    const second = await snapshotDocument(page, {});
    expect(second.documentId).toBe(first.documentId);
    expect(byName(second.nodes, 'Close dialog').key).toBe(byName(first.nodes, 'Close dialog').key);
    const oldKey = byName(second.nodes, 'Go ahead').key;
    await page.evaluate(() => {
      const old = [...document.querySelectorAll('input')].find((input) => input.value === 'Go ahead');
      old?.replaceWith(old.cloneNode());
    });
    const third = await snapshotDocument(page, {});
    expect(third.detached).toEqual([oldKey]);
    expect(byName(third.nodes, 'Go ahead').key).not.toBe(oldKey);
    expect((await snapshotDocument(page, {})).detached).toEqual([]);
    expect(await elementForKey(page, oldKey)).toBeNull();
    await page.reload();
    expect((await snapshotDocument(page, {})).documentId).not.toBe(first.documentId);
  });
});

describe('a page whose snapshot is long', () => {
  it('reads every node of it, names past ASCII included, walked or through the model', async () => {
    const items = 3_000;
    await page.setContent(
      `<ul>${Array.from({ length: items }, (_, i) => `<li>Élément ${i} — 名前 ✓</li>`).join('')}</ul>`,
    );
    const walked = await snapshotDocument(page, {});
    const modelled = await snapshotDocument(page, { bounds: false });
    for (const { nodes } of [walked, modelled]) {
      expect(nodes.length).toBeGreaterThan(items);
      expect(nodes.filter((node) => node.role === 'listitem')).toHaveLength(items);
      expect(byName(nodes, `Élément ${items - 1} — 名前 ✓`).role).toBe('text');
    }
    expect(modelled.nodes.map(({ key, role, name }) => [key, role, name])).toEqual(
      walked.nodes.map(({ key, role, name }) => [key, role, name]),
    );
  });
});

describe('shadow DOM and iframes', () => {
  it('walks open shadow roots with slots in assigned order, and clicks through a key inside one', async () => {
    await page.goto(fixture('snapshot-shadow.html'));
    const { nodes } = await snapshotDocument(page, {});
    expect(
      nodes.map((node) => `${node.role}:${node.name}`).filter((line) => !line.startsWith('status')),
    ).toEqual(['document:Shadow DOM', 'heading:Card title', 'button:Shadow button', 'button:Light button']);
    const located = await describeLocated(page.getByRole('button', { name: 'Shadow button' }));
    expect(located?.node).toEqual(byName(nodes, 'Shadow button'));
    const handle = await elementForKey(page, byName(nodes, 'Shadow button').key);
    await handle?.click();
    expect(await page.textContent('#status')).toBe('shadow clicked');
  });

  it('walks a same-origin iframe inline in top-viewport coordinates, and clicks through a key inside it', async () => {
    await page.goto(fixture('snapshot-iframe.html'));
    await page.frames()[1]?.waitForLoadState();
    const { nodes } = await snapshotDocument(page, {});
    const frame = byName(nodes, 'Inner frame');
    const button = byName(nodes, 'Frame button');
    expect(frame.role).toBe('iframe');
    expect(byName(nodes, 'Inside').parent).toBe(frame.key);
    expect(button.parent).toBe(frame.key);
    // The iframe's content starts at left 40 + border 5; the button has a 10 px margin.
    expect(button.bbox?.x).toBe(55);
    expect(button.bbox?.y).toBeGreaterThan(65);
    const inFrame = page.frameLocator('iframe').getByRole('button', { name: 'Frame button' });
    expect((await describeLocated(inFrame))?.node).toMatchObject({
      key: button.key,
      role: 'button',
      parent: frame.key,
    });
    const handle = await elementForKey(page, button.key);
    await handle?.click();
    const after = await snapshotDocument(page, {});
    expect(after.nodes.map((node) => node.name)).toContain('frame clicked');
  });
});

describe('link URLs', () => {
  const LINKS = ['#plain', '#', '#a-b_c.1~', '#with space', '#é', '#"quoted"', 'other.html#x', '?q=1#x', ''];
  const linksHtml = LINKS.map((href, index) => `<a href='${href}'>link ${index}</a>`).join(' ');

  /** Each link's URL in the snapshot against what the browser's own href getter says. */
  async function urlsAgainstHref(): Promise<{ url: string | undefined; href: string }[]> {
    const { nodes } = await snapshotDocument(page, {});
    const hrefs = await page.$$eval('a', (anchors) =>
      anchors.map((anchor) => (anchor as HTMLAnchorElement).href),
    );
    return LINKS.map((_, index) => ({
      url: byName(nodes, `link ${index}`).url,
      href: hrefs[index] as string,
    }));
  }

  it('resolves fragment and other links as the href getter does, from a document URL with a fragment', async () => {
    await page.goto(`${fixture('snapshot-accname.html')}#start`);
    await page.evaluate((html) => {
      document.body.innerHTML = html;
    }, linksHtml);
    const pairs = await urlsAgainstHref();
    expect(pairs[0]?.href).toMatch(/snapshot-accname\.html#plain$/);
    for (const { url, href } of pairs) expect(url).toBe(href);
  });

  it('resolves them against a <base> element', async () => {
    await page.goto(fixture('snapshot-accname.html'));
    await page.evaluate((html) => {
      const base = document.createElement('base');
      base.href = 'https://example.test/app/index.html#ignored';
      document.head.append(base);
      document.body.innerHTML = html;
    }, linksHtml);
    const pairs = await urlsAgainstHref();
    expect(pairs[0]?.href).toBe('https://example.test/app/index.html#plain');
    for (const { url, href } of pairs) expect(url).toBe(href);
  });
});
