import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withEngine } from './install.js';

const REPLACED = 'page.evaluate: Execution context was destroyed, most likely because of a navigation';

/**
 * A page whose evaluations answer from a script: an Error is thrown, undefined means "no engine in this
 * document", anything else is the read. The installer's own evaluation (a string) always succeeds.
 */
function scriptedPage(answers: unknown[]): { page: Page; waits: () => number } {
  let waits = 0;
  const page = {
    evaluate: async (script: unknown) => {
      if (typeof script === 'string') return undefined;
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    },
    waitForLoadState: async () => {
      waits += 1;
    },
  };
  return { page: page as unknown as Page, waits: () => waits };
}

describe('withEngine on a document being replaced', () => {
  it('reads the new document when the old one went away mid-read', async () => {
    const { page, waits } = scriptedPage([new Error(REPLACED), 'the new document']);
    await expect(withEngine(page, () => undefined, null)).resolves.toBe('the new document');
    expect(waits()).toBe(1);
  });

  it('reads again when the document changed between installing the engine and reading', async () => {
    const { page } = scriptedPage([undefined, undefined, 'after the change']);
    await expect(withEngine(page, () => undefined, null)).resolves.toBe('after the change');
  });

  it('answers PROTOCOL_ERROR, not an unexpected error, when it keeps being replaced', async () => {
    const { page } = scriptedPage(Array.from({ length: 8 }, () => new Error(REPLACED)));
    await expect(withEngine(page, () => undefined, null)).rejects.toMatchObject({
      code: 'PROTOCOL_ERROR',
      message: expect.stringContaining('replaced its document 4 times'),
    });
  });

  it('lets any other failure through as it is', async () => {
    const { page } = scriptedPage([new Error('Target page, context or browser has been closed')]);
    await expect(withEngine(page, () => undefined, null)).rejects.toThrow(/has been closed/);
  });
});
