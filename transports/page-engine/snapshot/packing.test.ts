import { deflateRawSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { createPacking, type PackedText, unpack } from './packing.js';

let page: Page;
useSharedPage((shared) => {
  page = shared;
});

/** What the page's packing answers for `text`, with the given threshold; `__name` shadowed as the installer does. */
function packInPage(text: string, threshold: number): Promise<string | PackedText> {
  return page.evaluate(
    `(() => { const __name = (target) => target; return (${createPacking})(${threshold}).pack(${JSON.stringify(text)}); })()`,
  );
}

describe('packing between the page and Node', () => {
  it('sends a short text as it is', async () => {
    await expect(packInPage('3,0,1,0,4,Save,', 1024)).resolves.toBe('3,0,1,0,4,Save,');
  });

  it('deflates a long text in the page, and Node gets back every character, past ASCII too', async () => {
    const text = Array.from({ length: 4000 }, (_, i) => `${i},1,2,0,14,Customer ${i} ✓ 名前 🚀,`).join('');
    const packed = await packInPage(text, 1024);
    expect(typeof packed).toBe('object');
    expect((packed as PackedText).deflated.length).toBeLessThan(text.length / 4);
    await expect(unpack(packed, 'snapshot')).resolves.toBe(text);
  });

  it('answers PROTOCOL_ERROR for an answer of neither form, or one that does not inflate', async () => {
    await expect(unpack(42, 'snapshot')).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    await expect(unpack({ deflated: 'bm90IGRlZmxhdGVk' }, 'snapshot')).rejects.toMatchObject({
      code: 'PROTOCOL_ERROR',
      message: expect.stringContaining('does not inflate'),
    });
  });

  it('stops a packed text that inflates past the bound, whatever it says it is', async () => {
    const bomb = { deflated: deflateRawSync(Buffer.alloc(1 << 20)).toString('base64') };
    await expect(unpack(bomb, 'snapshot', 1 << 16)).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    await expect(unpack(bomb, 'snapshot', 1 << 21)).resolves.toHaveLength(1 << 20);
  });
});
