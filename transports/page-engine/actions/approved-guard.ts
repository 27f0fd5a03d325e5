/// <reference lib="dom" />
import type { JSHandle, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { ExpectedElement } from '../../contract/window-driver.js';
import { ENGINE_GLOBAL, type Engine } from '../snapshot/install.js';
import { isHandle, type Resolved } from '../targets/target-resolution.js';
import { type Action, perform } from './page-actions.js';

/**
 * The input events by which an action on an approved element does something to it: pointer and mouse
 * presses and clicks (click, check, drag; moving the pointer over it does nothing by itself and is not
 * stopped), and keyboard and text input (press, type, fill).
 */
const GUARDED_EVENTS = [
  'pointerdown',
  'mousedown',
  'pointerup',
  'mouseup',
  'click',
  'auxclick',
  'dblclick',
  'contextmenu',
  'keydown',
  'keypress',
  'beforeinput',
] as const;

/**
 * What the page answers when the guard is removed: null when every event went through, else the role and
 * name it saw, and how many of the action's events had reached the element before (a press the page
 * relabelled the button on was one of them).
 */
export type GuardReport = {
  readonly role: string;
  readonly name: string;
  readonly delivered: number;
} | null;

interface Guard {
  /** Set when the element was no longer the approved one as the guard was put on it. */
  readonly changedAlready: GuardReport;
  remove(): GuardReport;
}

/**
 * `perform`, on an approved element: nothing is sent when it is no longer the approved one as the guard
 * goes on, and its input is stopped at the element when it changes before the input reaches it.
 */
export async function performGuarded(
  page: Page,
  element: Resolved,
  action: Action,
  timeoutMs: number,
  target: string,
  expected: ExpectedElement,
): Promise<void> {
  const guard = await guardApproved(element, expected, timeoutMs);
  const early = await guard.evaluate((g) => g.changedAlready).catch(() => null);
  let failure: unknown = null;
  if (!early)
    await perform(page, element, action, timeoutMs, target).catch((error: unknown) => {
      failure = error;
    });
  // What the guard saw wins over how the action ended: a stopped press can time a click out.
  const seen = await removeGuard(guard);
  if (seen) throw changedAtDispatch(expected, seen);
  if (failure) throw failure;
}

/**
 * Closes the gap between the gateway's last look at an approved element and the action's input reaching
 * it. Playwright already checks, as each pointer event is dispatched, that the element under the pointer is
 * the one it resolved (its hit-target interceptor); this adds, in the same dispatch, that the element still
 * has the approved role and name: a capture listener on the element's window describes it with the
 * snapshot walker before the page's own listeners on it run, and stops the event when it was relabelled
 * (a page that swaps "Delete draft" for "Delete account" as the pointer arrives). Listeners the page put on
 * its window earlier still run first: the page owns its main world, as it owns the walker's.
 */
async function guardApproved(
  element: Resolved,
  expected: ExpectedElement,
  timeoutMs: number,
): Promise<JSHandle<Guard>> {
  // Object methods only inside: the served gateway's compiler (esbuild, keepNames) wraps named arrow
  // functions in a `__name(...)` helper that exists only in Node, and this source runs in the page.
  const install = (
    target: Element,
    { global, role, name, events }: { global: string; role: string; name: string; events: string[] },
  ) => {
    const view = target.ownerDocument.defaultView ?? window;
    const top = view.top ?? view;
    const engine = (top as unknown as Record<string, Engine | undefined>)[global];
    const guard = {
      seen: null as { role: string; name: string; delivered: number } | null,
      delivered: 0,
      now(): { role: string; name: string; delivered: number } {
        try {
          const node = engine ? (JSON.parse(engine.walker.describe(target)).node as unknown[]) : null;
          const described = node ? { role: String(node[2]), name: String(node[3]) } : { role: '', name: '' };
          return { ...described, delivered: guard.delivered };
        } catch {
          return { role: '', name: '', delivered: guard.delivered };
        }
      },
      changed(): boolean {
        if (guard.seen) return true;
        const current = guard.now();
        if (current.role === role && current.name === name) return false;
        guard.seen = current;
        return true;
      },
      check(event: Event): void {
        if (!event.composedPath().includes(target)) return;
        if (!guard.changed()) {
          guard.delivered += 1;
          return;
        }
        event.preventDefault();
        event.stopImmediatePropagation();
      },
      remove(): { role: string; name: string; delivered: number } | null {
        for (const type of events) view.removeEventListener(type, guard.check, { capture: true });
        return guard.seen;
      },
      changedAlready: null as { role: string; name: string; delivered: number } | null,
    };
    if (guard.changed()) guard.changedAlready = guard.seen;
    for (const type of events) view.addEventListener(type, guard.check, { capture: true });
    return guard;
  };
  const arg = {
    global: ENGINE_GLOBAL,
    role: expected.role,
    name: expected.name,
    events: [...GUARDED_EVENTS],
  };
  const installed = isHandle(element)
    ? await element.evaluateHandle(install, arg)
    : await element.evaluateHandle(install, arg, { timeout: timeoutMs });
  return installed as unknown as JSHandle<Guard>;
}

/**
 * Removes the guard and says what it stopped. A guard whose document went away with the action (a click
 * that navigated) stopped nothing it could report, and the action went through.
 */
async function removeGuard(guard: JSHandle<Guard>): Promise<GuardReport> {
  try {
    return await guard.evaluate((g) => g.remove());
  } catch {
    return null;
  } finally {
    void guard.dispose().catch(() => undefined);
  }
}

function changedAtDispatch(expected: ExpectedElement, seen: NonNullable<GuardReport>): StagegraphError {
  const changes = [
    ...(seen.role === expected.role ? [] : ['role']),
    ...(seen.name === expected.name ? [] : ['name']),
  ];
  return new StagegraphError(
    'TARGET_CHANGED_AFTER_APPROVAL',
    `The approved ${expected.role} "${expected.name}" was ${seen.role || 'gone'} "${seen.name}" when the action's input reached it; the input was stopped there.`,
    {
      details: {
        approved: expected,
        found: { role: seen.role, name: seen.name },
        changes,
        delivered: seen.delivered,
      },
    },
  );
}
