import type { Page } from 'playwright-core';
import type { ElementAction } from '../../contract/window-driver.js';
import { isHandle, type Resolved } from '../targets/target-resolution.js';
import { type ActionProgress, actionError } from './action-errors.js';

/** An element action with a drag's destination already resolved to an element. */
export type Action = ElementAction | { readonly type: 'dragTo'; readonly to: Resolved };

/** Runs one action with Playwright's actionability waits, bounded by `timeoutMs`; failures carry a code. */
export async function perform(
  page: Page,
  element: Resolved,
  action: Action,
  timeoutMs: number,
  target: string,
): Promise<void> {
  const timeout = { timeout: timeoutMs };
  const progress: ActionProgress = { dispatched: false };
  try {
    switch (action.type) {
      case 'click':
        await element.click({
          ...timeout,
          ...(action.button ? { button: action.button } : {}),
          ...(action.clickCount ? { clickCount: action.clickCount } : {}),
          ...(action.modifiers ? { modifiers: [...action.modifiers] } : {}),
          ...(action.position ? { position: action.position } : {}),
        });
        return;
      case 'fill':
        await element.fill(action.value, timeout);
        return;
      case 'type':
        // Real key events, one per character, as a person typing (fill sets the value in one step).
        await focus(element, timeoutMs);
        await page.keyboard.type(action.text, action.delayMs ? { delay: action.delayMs } : {});
        return;
      case 'press':
        await element.press(action.key, timeout);
        return;
      case 'hover':
        await element.hover(timeout);
        return;
      case 'focus':
        await focus(element, timeoutMs);
        return;
      case 'clear':
        await element.fill('', timeout);
        return;
      case 'setChecked':
        await element.setChecked(action.checked, timeout);
        return;
      case 'selectOption': {
        const options = [
          ...(action.values ?? []).map((value) => ({ value })),
          ...(action.labels ?? []).map((label) => ({ label })),
          ...(action.indexes ?? []).map((index) => ({ index })),
        ];
        await element.selectOption(options, timeout);
        return;
      }
      case 'setInputFiles':
        await element.setInputFiles([...action.paths], timeout);
        return;
      case 'scrollIntoView':
        await element.scrollIntoViewIfNeeded(timeout);
        return;
      case 'dragTo':
        await dragTo(page, element, action.to, timeoutMs, progress);
        return;
    }
  } catch (error) {
    throw actionError(error, action.type, target, timeoutMs, progress);
  }
}

/** Focuses the element within the action's timeout (a handle's focus takes none: it is there already). */
function focus(element: Resolved, timeoutMs: number): Promise<void> {
  return isHandle(element) ? element.focus() : element.focus({ timeout: timeoutMs });
}

/**
 * Locators drag natively; handles (refs) drag with the mouse between the two element centres. Once the
 * button is down the page has the drag: a failure after that is not a drag that never started.
 */
async function dragTo(
  page: Page,
  from: Resolved,
  to: Resolved,
  timeoutMs: number,
  progress: ActionProgress,
): Promise<void> {
  if (!isHandle(from) && !isHandle(to)) {
    await from.dragTo(to, { timeout: timeoutMs });
    return;
  }
  await from.hover({ timeout: timeoutMs });
  progress.dispatched = true;
  await page.mouse.down();
  await to.hover({ timeout: timeoutMs });
  await page.mouse.up();
}
