import type { ElementHandle, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { RawNode, TargetQuery } from '../../contract/window-driver.js';
import { describeElement, snapshotDocument } from '../snapshot/page-snapshot.js';
import { isHandle, resolveTarget } from './target-resolution.js';

const page_ = (name: string) => new URL(`../../../fixtures/pages/${name}`, import.meta.url).href;
const noKeys = async () => null;
/** A safety net for targets that are there: a loaded machine takes seconds over what a quiet one does. */
const PRESENT_WAIT_MS = 30_000;

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

const resolve = (query: TargetQuery, timeoutMs = PRESENT_WAIT_MS) =>
  resolveTarget(page, query, timeoutMs, noKeys);

/** A role target's element: always a handle, found by the walker as a ref's is. */
async function handleOf(query: TargetQuery, timeoutMs = PRESENT_WAIT_MS): Promise<ElementHandle<Element>> {
  const resolved = await resolve(query, timeoutMs);
  if (!isHandle(resolved)) throw new Error('a role target resolved to a locator');
  return resolved;
}

/** The walker's key of the element a query resolves to. */
async function keyOf(query: TargetQuery): Promise<number> {
  const resolved = await resolve(query);
  const handle = isHandle(resolved) ? resolved : await resolved.elementHandle();
  if (!handle) throw new Error('resolved to nothing');
  return (await describeElement(page, handle)).node.key;
}

describe.each(['accname-word-breaks.html', 'snapshot-accname.html', 'snapshot-states.html'])(
  'role targets on %s',
  (file) => {
    it('every (role, name) the snapshot shows finds exactly its nodes, in order', async () => {
      await page.goto(page_(file));
      const { nodes } = await snapshotDocument(page, {});
      const groups = new Map<string, RawNode[]>();
      for (const node of nodes) {
        if (node.role === 'text' || node.role === 'document' || node.role === 'iframe') continue;
        const id = `${node.role}|${node.name}`;
        groups.set(id, [...(groups.get(id) ?? []), node]);
      }
      expect(groups.size).toBeGreaterThan(10);
      for (const [id, group] of groups) {
        const [role = '', name = ''] = [id.slice(0, id.indexOf('|')), id.slice(id.indexOf('|') + 1)];
        const spec = { kind: 'role', role, name } as const;
        if (group.length === 1) {
          expect(await keyOf({ spec }), id).toBe(group[0]?.key);
          continue;
        }
        await expect(resolve({ spec }), id).rejects.toMatchObject({
          code: 'AMBIGUOUS_TARGET',
          details: { count: group.length },
        });
        for (const [nth, node] of group.entries()) expect(await keyOf({ spec, nth }), id).toBe(node.key);
      }
    });
  },
);

describe('role targets', () => {
  it("find names Playwright's getByRole computes differently from Chromium", async () => {
    await page.goto(page_('accname-word-breaks.html'));
    for (const name of ['Send now', 'Next page Continue', 'Star it']) {
      // Playwright glues an image's alt (or generated alternative text) to the next word.
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      const resolved = await handleOf({ spec: { kind: 'role', role: 'button', name } });
      expect(await resolved.evaluate((element) => element.tagName), name).toBe('BUTTON');
    }
  });

  it('match without `exact` ignoring case, and list ambiguous candidates with their roles and names', async () => {
    await page.goto(page_('accname-word-breaks.html'));
    const loose = await handleOf({ spec: { kind: 'role', role: 'heading', name: 'oas 3', exact: false } });
    expect(await loose.evaluate((element) => element.tagName)).toBe('H2');
    await expect(
      resolve({ spec: { kind: 'role', role: 'link', name: 'link', exact: false } }),
    ).resolves.toBeDefined();
    const error = await resolve({ spec: { kind: 'role', role: 'button', name: 'Hey', exact: false } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'AMBIGUOUS_TARGET',
      details: {
        count: 2,
        candidates: [
          { node: { role: 'button', name: 'Hey!' } },
          { node: { role: 'button', name: 'Hey!there' } },
        ],
      },
    });
  });

  it('wait for a match that appears later, in the document and inside a shadow root', async () => {
    await page.goto(page_('accname-word-breaks.html'));
    const later = handleOf({ spec: { kind: 'role', role: 'button', name: 'Arrived late' } });
    const shadowed = handleOf({ spec: { kind: 'role', role: 'button', name: 'In the shadow' } });
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.innerHTML = '<span style="display:inline-block">Arrived</span><span>late</span>';
      document.body.append(button);
      const host = document.createElement('div');
      document.body.append(host);
      // Attached empty, filled afterwards: the document's observer sees the host, not the shadow's change.
      const shadow = host.attachShadow({ mode: 'open' });
      setTimeout(() => {
        shadow.innerHTML = '<button>In the shadow</button>';
      }, 50);
    });
    expect(await (await later).evaluate((element) => element.textContent)).toBe('Arrivedlate');
    expect(await (await shadowed).evaluate((element) => element.textContent)).toBe('In the shadow');
  });

  it('scope `within` another target, and say SELECTOR_NO_MATCH after the bounded wait', async () => {
    await page.goto(page_('accname-word-breaks.html'));
    const within: TargetQuery = { spec: { kind: 'role', role: 'link', name: 'Go Inner on' } };
    const inner = await handleOf({ spec: { kind: 'role', role: 'button', name: 'Inner' }, within });
    expect(await inner.evaluate((element) => element.textContent)).toBe('Inner');
    await expect(
      resolve({ spec: { kind: 'role', role: 'button', name: 'Save draft' }, within }, 200),
    ).rejects.toMatchObject({ code: 'SELECTOR_NO_MATCH' });
  });
});
