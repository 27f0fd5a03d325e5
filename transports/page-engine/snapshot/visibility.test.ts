import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { createLayout } from './layout.js';
import { createVisibility } from './visibility.js';

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

/** Hidden by every means there is, inside the containers the style shortcut applies to, and outside. */
const TRICKY = `<!doctype html><style>
  .gone { display: none } .ghost { visibility: hidden } .shown { visibility: visible }
  .contents { display: contents } .skip { content-visibility: hidden } tr.flat td { display: contents }
  ul.hide-items > li:nth-child(2) { display: none } .collapse { visibility: collapse }
</style>
<table><caption>Cap <span class="gone">no</span></caption><tbody>
  <tr><td class="gone">a <b>b</b></td><td class="ghost">c <span class="shown">d</span> <i>e</i></td>
    <td class="skip">f <b>g</b></td><td hidden>h</td><td class="contents">i <b>j</b></td></tr>
  <tr class="flat"><td>k <em>l</em></td><td><details><summary>m</summary>n <b>o</b></details></td></tr>
  <tr class="collapse"><td>p <b>q</b></td></tr>
  <tr><td><select><option>r</option></select> <button>s <span class="gone">t</span></button>
    <a href="#">u <img alt="v"><span aria-hidden="true">w</span></a><textarea>x</textarea></td></tr>
</tbody></table>
<ul class="hide-items"><li>1 <b>1b</b></li><li>2 <b>2b</b></li><li hidden="until-found">3 <b>3b</b></li>
  <li class="ghost"><b class="shown">4</b></li><li><ol><li inert>5 <b>5b</b></li></ol></li></ul>
<dl><dt>t</dt><dd class="skip"><span>dd</span></dd></dl>
<form><fieldset><legend>L <span>l2</span></legend><label>lab <b>el</b></label></fieldset></form>
<p>para <span class="gone">x</span> <strong>y <em>z</em></strong></p>
<div id="host"><span>light</span></div><div id="closed"><span>unslotted</span></div>`;

/**
 * content-visibility set where no document sheet mentions it, so each way it can still arrive is read: a
 * style attribute, the CSSOM, hidden=until-found, an adopted sheet and a shadow tree's own sheet.
 */
const CONTENT_VISIBILITY_WITHOUT_RULES = `<!doctype html><style>p { margin: 0 }</style>
<ul><li style="content-visibility: hidden">a <b>b</b></li><li id="cssom">c <b>d</b></li>
  <li hidden="until-found">e <b>f</b></li><li>i <b>j</b></li></ul>
<div id="shadowed"></div><div id="adopting"></div>`;

/** Every element of the body, classified by visibility.ts and by checkVisibility plus computed style. */
function classifyBoth(): Promise<[string[], string[]]> {
  return page.evaluate<[string[], string[]]>(
    `(() => {
      const __name = (target) => target;
      const layout = (${createLayout})();
      const visibility = (${createVisibility})(layout);
      layout.beginPass();
      visibility.beginPass();
      const elements = [];
      const collect = (root) => {
        for (const element of root.querySelectorAll('*')) {
          elements.push(element);
          if (element.shadowRoot) collect(element.shadowRoot);
        }
      };
      collect(document.body);
      const reference = (element) => {
        if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(element.tagName)) return 0;
        if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert')) return 0;
        if (element.checkVisibility({ visibilityProperty: true })) return 2;
        const style = getComputedStyle(element);
        if (style.display === 'none') return 0;
        if (style.visibility !== 'visible') return 1;
        if (style.display === 'contents') return 3;
        return 0;
      };
      const describe = (element, kind) => element.tagName + ':' + (element.textContent ?? '').trim().slice(0, 12) + '=' + kind;
      return [
        elements.map((element) => describe(element, visibility.classify(element))),
        elements.map((element) => describe(element, reference(element))),
      ];
    })()`,
  );
}

describe('visibility', () => {
  it('classifies every element as checkVisibility and computed style do, read in document order', async () => {
    await page.setContent(TRICKY);
    await page.evaluate(() => {
      (document.getElementById('host') as HTMLElement).attachShadow({ mode: 'open' }).innerHTML =
        '<p>shadow <slot></slot></p>';
      (document.getElementById('closed') as HTMLElement).attachShadow({ mode: 'closed' }).innerHTML =
        '<p>closed</p>';
    });
    const [ours, reference] = await classifyBoth();
    expect(ours).toEqual(reference);
    // The page does exercise every kind.
    for (const kind of ['=0', '=1', '=2', '=3'])
      expect(reference.some((line) => line.endsWith(kind))).toBe(true);
  });

  it('reads content-visibility wherever it can be set when no document rule mentions it', async () => {
    await page.setContent(CONTENT_VISIBILITY_WITHOUT_RULES);
    await page.evaluate(() => {
      (document.getElementById('cssom') as HTMLElement).style.contentVisibility = 'hidden';
      (document.getElementById('shadowed') as HTMLElement).attachShadow({ mode: 'open' }).innerHTML =
        '<style>.inner { content-visibility: hidden }</style><ul><li class="inner">k <b>l</b></li><li>m</li></ul>';
      const adopting = (document.getElementById('adopting') as HTMLElement).attachShadow({ mode: 'open' });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('.adopted { content-visibility: hidden }');
      adopting.adoptedStyleSheets = [sheet];
      adopting.innerHTML = '<ul><li class="adopted">g <b>h</b></li></ul>';
    });
    const [ours, reference] = await classifyBoth();
    expect(ours).toEqual(reference);
    // Each skipped item's child is gone; the one plain item's child shows.
    expect(reference.filter((line) => line.startsWith('B:') && line.endsWith('=0'))).toHaveLength(5);
    expect(reference).toContain('B:j=2');
  });
});
