import type { Capability } from '../../contract/capabilities.js';

/**
 * What the page engine gives a transport whose renderers Playwright drives over a CDP connection of their
 * own (launch, attach), each seam tested end to end. Inject's upgrade reaches renderers through
 * webContents.debugger instead, and lists what it has tested there (inspector-session.ts UPGRADED).
 */
export const PAGE_ENGINE_CAPABILITIES: readonly Capability[] = [
  'WINDOWS',
  'CONSOLE',
  'SNAPSHOT',
  'INTERACTION',
  'SCREENSHOT',
  'INTERCEPT',
  'DIALOGS',
  'STORAGE',
  'CLOCK',
  'RENDERER_EVAL',
];
