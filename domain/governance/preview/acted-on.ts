import { readFile, readlink } from 'node:fs/promises';
import type { NativeMenuItem } from '../../../transports/contract/native.js';
import { findMenuItem } from '../../native/menu-path.js';
import type { Session } from '../../sessions/session.js';
import type { PreviewRequest } from '../request/governed-operation.js';
import type { ActedOnKind, JsonObject, JsonValue, TargetInfo } from '../request/governed-request.js';

/**
 * Reads, without acting, the thing an operation names in its arguments. A previewer never throws: what it
 * cannot read it describes from the arguments (the label asked for scores as the label shown would) and
 * says why in `previewError`, so a failed read never lowers the risk.
 */
export type ActedOnPreviewer = (session: Session | null, request: PreviewRequest) => Promise<TargetInfo>;

/** Every kind but page elements, which the window's target engine resolves (target-preview.ts). */
export const ACTED_ON_PREVIEWERS: Readonly<Record<Exclude<ActedOnKind, 'element'>, ActedOnPreviewer>> = {
  menuItem: async (session, { subject, fresh }) => {
    const path = strings(subject);
    const item = await read(session, (live) => live.native.previewMenuItem(path, fresh === true));
    return menuItemInfo('menuItem', path, item, null);
  },
  contextMenuItem: async (session, { subject }) => {
    const path = strings(subject);
    const menu = await read(session, (live) => live.native.contextMenu());
    const item = menu.value ? findMenuItem(menu.value.items, path) : null;
    const failed = menu.error ?? (menu.value ? null : 'no context menu is open');
    return menuItemInfo(
      'contextMenuItem',
      path,
      { value: item, error: failed },
      menu.value?.windowId ?? null,
    );
  },
  tray: async (session, { subject, event }) => {
    const id = String(subject ?? '');
    const trays = await read(session, (live) => live.native.trays());
    const tray = trays.value?.find((candidate) => candidate.id === id);
    const name = tray ? tray.tooltip || tray.title || id : id;
    return {
      kind: 'tray',
      role: 'tray',
      name,
      path: [id],
      // Pointer hovers announce nothing; clicks do what the tray is for.
      activates: /CLICK$/.test(event ?? ''),
      previewError: trays.error ?? (tray ? null : `no tray ${id}`),
    };
  },
  program: async (_session, { subject }) => programInfo(subject),
  location: async (session, { subject, window }) => locationInfo(session, subject, window ?? null),
};

/**
 * navigate: where the window will be, so a rule can match the URL (`target: { kind: [location], name:
 * "https://intranet.example/*" }`) whatever way the agent wrote it — a history step is read from the
 * window's history. Going somewhere is a change, not an activation: a URL's words do not raise the risk.
 */
async function locationInfo(
  session: Session | null,
  subject: JsonValue | null | undefined,
  windowId: string | null,
): Promise<TargetInfo> {
  const to = (subject ?? {}) as JsonObject;
  const step = typeof to.step === 'string' ? to.step : null;
  const asked = typeof to.url === 'string' ? to.url : (step ?? '');
  const seen = await read(session, async (live) => {
    const { window, driver } = await live.window(windowId);
    const history = step === 'BACK' || step === 'FORWARD' ? await driver.history() : null;
    const offset = step === 'BACK' ? -1 : 1;
    const stepped = history?.urls[history.index + offset];
    return { window, to: step === 'RELOAD' ? window.url : (stepped ?? (step ? null : asked)) };
  });
  const from = seen.value?.window.url ?? null;
  const destination = seen.value?.to ?? null;
  return {
    kind: 'location',
    role: 'location',
    name: destination ?? asked,
    path: from === null ? [destination ?? asked] : [from, destination ?? asked],
    windowId: seen.value?.window.id ?? windowId,
    activates: false,
    previewError: seen.error ?? (destination === null ? `no history entry ${step?.toLowerCase()}` : null),
  };
}

const MENU_ROLES: Readonly<Record<NativeMenuItem['type'], string>> = {
  normal: 'menuitem',
  checkbox: 'menuitemcheckbox',
  radio: 'menuitemradio',
  submenu: 'menu',
  separator: 'separator',
};

function menuItemInfo(
  kind: 'menuItem' | 'contextMenuItem',
  path: readonly string[],
  item: { value: NativeMenuItem | null; error: string | null },
  windowId: string | null,
): TargetInfo {
  const found = item.value;
  return {
    kind,
    role: found ? (found.role ?? MENU_ROLES[found.type]) : 'menuitem',
    name: found?.label || path.at(-1) || '',
    path,
    windowId,
    activates: true,
    previewError: item.error ?? (found ? null : `no menu item at ${path.join(' > ')}`),
  };
}

/** launch, launchCommand and inject: the program that will run, as far as it is known before it runs. */
async function programInfo(subject: JsonValue | null | undefined): Promise<TargetInfo> {
  const input = (subject ?? {}) as JsonObject;
  const programArgs = strings(input.args);
  if (typeof input.command === 'string') return program(input.command, [input.command, ...programArgs], null);
  if (typeof input.pid === 'number') return injectedProgram(input.pid);
  const main = typeof input.main === 'string' ? [input.main] : [];
  if (typeof input.executablePath === 'string')
    return program(input.executablePath, [input.executablePath, ...main, ...programArgs], null);
  // The default Electron is found by the launch itself; a rule on the executable sees only "electron".
  return program(
    'electron',
    ['electron', ...main, ...programArgs],
    'no executablePath: the default Electron is resolved at launch',
  );
}

/** An injected process is already running: its executable and command line are read from /proc. */
async function injectedProgram(pid: number): Promise<TargetInfo> {
  try {
    const executable = await readlink(`/proc/${pid}/exe`);
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8'))
      .split('\0')
      .filter((part) => part !== '');
    return program(executable, cmdline.length > 0 ? cmdline : [executable], null);
  } catch (error) {
    return program(`pid ${pid}`, [`pid ${pid}`], `cannot read process ${pid}: ${(error as Error).message}`);
  }
}

function program(name: string, path: readonly string[], previewError: string | null): TargetInfo {
  return { kind: 'program', role: 'program', name, path, activates: false, previewError };
}

async function read<T>(
  session: Session | null,
  reader: (session: Session) => Promise<T>,
): Promise<{ value: T | null; error: string | null }> {
  if (!session?.isLive) return { value: null, error: session ? 'the session has ended' : 'no such session' };
  try {
    return { value: await reader(session), error: null };
  } catch (error) {
    return { value: null, error: (error as Error).message };
  }
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.map((item) => String(item)) : [];
}
