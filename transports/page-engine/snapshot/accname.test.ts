import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { RawNode } from '../../contract/window-driver.js';
import { snapshotDocument } from './page-snapshot.js';

const page_ = (name: string) => new URL(`../../../fixtures/pages/${name}`, import.meta.url).href;
/** Chromium's role names where they differ from the ARIA names the walker reports. */
const CHROMIUM_ROLES: Record<string, string> = { DisclosureTriangle: 'button', textField: 'textbox' };

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

/** (role, name) of every node Chromium exposes with one of `roles`, as sorted "role|name" lines. */
async function chromiumNames(roles: ReadonlySet<string>): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes
      .filter((node) => !node.ignored)
      .map((node) => {
        const role = String(node.role?.value ?? '');
        return `${CHROMIUM_ROLES[role] ?? role}|${String(node.name?.value ?? '')}`;
      })
      .filter((line) => roles.has(line.slice(0, line.indexOf('|'))))
      .sort();
  } finally {
    await cdp.detach();
  }
}

const interactive = (nodes: readonly RawNode[]) => nodes.filter((node) => node.interactive);
const named = (nodes: readonly RawNode[], role: string) =>
  nodes.filter((node) => node.role === role).map((node) => node.name);

describe.each(['snapshot-accname.html', 'snapshot-states.html'])('names on %s', (file) => {
  it("every interactive node's (role, name) equals Chromium's own", async () => {
    await page.goto(page_(file));
    const ours = interactive((await snapshotDocument(page, {})).nodes);
    // Chromium exposes every div as generic; only real roles are compared.
    const roles = new Set(ours.map((node) => node.role).filter((role) => role !== 'generic'));
    const lines = ours
      .filter((node) => roles.has(node.role))
      .map((node) => `${node.role}|${node.name}`)
      .sort();
    expect(lines.length).toBeGreaterThan(5);
    expect(lines).toEqual(await chromiumNames(roles));
  });
});

describe('word breaks on accname-word-breaks.html', () => {
  // Every named node of these roles, inline, inline-block, flex, grid and block children, ::before and
  // ::after content, whitespace-only nodes, line breaks, hidden children and replaced elements among them.
  const ROLES = new Set(['button', 'link', 'heading']);

  it("every button, link and heading's name equals Chromium's own", async () => {
    await page.goto(page_('accname-word-breaks.html'));
    const { nodes } = await snapshotDocument(page, {});
    const lines = nodes
      .filter((node) => ROLES.has(node.role))
      .map((node) => `${node.role}|${node.name}`)
      .sort();
    expect(lines.length).toBeGreaterThan(40);
    expect(lines).toEqual(await chromiumNames(ROLES));
    // The cases the issue names, spelled out so a regression reads plainly.
    expect(lines).toEqual(
      expect.arrayContaining([
        'button|Save draft',
        "button|curl -X 'GET'",
        'heading|Shop API 1.0 OAS 3.0',
        'button|Before Go',
        'button|Hey!there',
        'button|Next page Continue',
        'button|G H',
      ]),
    );
  });

  it("breaks the snapshot's text runs where names break words", async () => {
    const { nodes } = await snapshotDocument(page, {});
    const texts = nodes.filter((node) => node.role === 'text').map((node) => node.name);
    expect(texts).toEqual(expect.arrayContaining(['Pet store v2 and boldly', 'Below']));
  });
});

describe('accname cases', () => {
  beforeAll(() => page.goto(page_('snapshot-accname.html')));

  it('reads labelledby (even from a hidden node), aria-label, labels, alt, title, placeholder and input values', async () => {
    const { nodes } = await snapshotDocument(page, {});
    expect(named(nodes, 'button')).toEqual(
      expect.arrayContaining([
        'Label from hidden node',
        'Close dialog',
        'Settings',
        'Submit',
        'Reset',
        'Go ahead',
        'Save draft now',
      ]),
    );
    expect(named(nodes, 'textbox')).toEqual(
      expect.arrayContaining(['First Second', 'Email address', 'Postal code', 'Search the catalogue']),
    );
    expect(named(nodes, 'checkbox')).toEqual(['Deliver every Month', 'Send copies to ops@example.com']);
    expect(named(nodes, 'link')).toEqual(['Home page', 'Read the full story', 'Lifted item']);
    expect(nodes.find((node) => node.name === 'Delete')?.description).toBe('Removes the item for good');
  });

  it('lifts the children of presentational elements and leaves hidden subtrees out', async () => {
    const { nodes } = await snapshotDocument(page, {});
    const root = nodes[0]?.key;
    const lifted = nodes.find((node) => node.name === 'Inside layout table');
    expect(lifted?.parent).toBe(root);
    expect(nodes.some((node) => node.role === 'row' || node.role === 'listitem')).toBe(false);
    const names = nodes.map((node) => node.name);
    for (const hidden of [
      'Not displayed',
      'Aria hidden',
      'Hidden attribute',
      'Invisible',
      'Inside closed details',
    ])
      expect(names).not.toContain(hidden);
    expect(names).toContain('Visible again');
    // A name read from content is not repeated as text nodes, nor are the elements that carry it.
    expect(names.filter((name) => name === 'draft')).toEqual([]);
  });
});
