import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  ScreencastHandle,
  ScreencastImage,
  ScreencastOptions,
} from '../../contract/screencast-contract.js';
import type {
  ExpectationResult,
  ExpectKind,
  HtmlRead,
  LoadState,
  Matcher,
  NavigationHistory,
  NavigationResult,
  NavigationTarget,
  RawSnapshot,
  RequestWatch,
  ResolvedNode,
  Screenshot,
  ScreenshotOptions,
  SnapshotRequest,
  TargetedAction,
  TargetQuery,
  WindowDriver,
} from '../../contract/window-driver.js';
import { type AccessibleRef, type AtspiBus, type AtspiSignal, REGISTRY_BUS } from '../bus/atspi-bus.js';
import type { DesktopInput } from '../input/desktop-input.js';
import { extrasOf, rawNode, screenExtents, snapshotOf } from '../tree/desktop-snapshot.js';
import type { KeyTable } from '../tree/key-table.js';
import { type TreeNode, TreeReader, type WindowTree } from '../tree/tree-read.js';
import { startX11Screencast, windowExtents } from '../x11/x11-screencast.js';
import { sendConfirmed } from './confirmed-keys.js';
import { textOf, waitForExpectation } from './desktop-expect.js';
import { matchesOf, resolveTarget, type WindowReads } from './desktop-targets.js';
import { actionability, perform, unsupportedAction } from './element-actions.js';

export interface DesktopWindowContext {
  readonly bus: AtspiBus;
  /** The top-level window (role frame, dialog or window) of the app. */
  readonly window: AccessibleRef;
  /** Shared by every window of the app. */
  readonly keys: KeyTable;
  /** Keyboard, pointer and screen capture. */
  readonly input: DesktopInput;
  /** Menus shown over this window that no window lists (bus/qt-popups.ts), read as part of it. */
  readonly popups?: () => Promise<AccessibleRef[]>;
}

const REGISTRY_PATH = '/org/a11y/atspi/registry';
const SELECTION_EVENTS = ['object:selection-changed', 'object:active-descendant-changed'];

const NO_REQUESTS: RequestWatch = {
  finished: 0,
  pending: () => [],
  idle: async () => undefined,
  end: () => undefined,
};

/**
 * One desktop window driven over AT-SPI2, behind the same seam a page is: snapshots read its accessible
 * tree in bulk (tree-read.ts), targets resolve against that tree, actions go through AT-SPI's Action,
 * EditableText, Value, Selection and Component interfaces (the X pointer and keyboard only for what they
 * cannot do), and every wait — for a target, an actionable state, an expectation, a change — wakes on the
 * app's own AT-SPI signals, never on a timer. Its document is the window: one `documentId` for its life.
 */
export class DesktopWindowDriver implements WindowDriver {
  readonly #bus: AtspiBus;
  readonly #window: AccessibleRef;
  readonly #keys: KeyTable;
  readonly #input: DesktopInput;
  readonly #reader: TreeReader;
  readonly #popups: () => Promise<AccessibleRef[]>;
  readonly #documentId: string;
  readonly #secrets = new Set<number>();
  /** Keys this window has handed out, by object path: what a removal signal turns into `detached`. */
  readonly #handedOut = new Map<string, number>();
  #detached: number[] = [];
  #changes = 0;
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: () => void;
  readonly #reads: WindowReads;

  constructor(context: DesktopWindowContext) {
    this.#bus = context.bus;
    this.#window = context.window;
    this.#keys = context.keys;
    this.#input = context.input;
    this.#reader = new TreeReader(context.bus, context.keys);
    this.#popups = context.popups ?? (async () => []);
    this.#documentId = `${context.window.busName}${context.window.path}`;
    this.#reads = {
      bus: context.bus,
      keys: context.keys,
      documentId: this.#documentId,
      secrets: this.#secrets,
      read: () => this.#read(),
      accessibleIds: (nodes) => this.#reader.accessibleIds(nodes),
      changes: () => this.#changes,
      nextChange: (after, timeoutMs) => this.#nextChange(after, timeoutMs),
    };
    this.#unsubscribe = context.bus.onSignal((signal) => this.#onSignal(signal));
    // Toolkits send only the events some client registered for; the bus registers the common ones, and a
    // list's selection changes are announced by these alone.
    for (const event of SELECTION_EVENTS) {
      context.bus
        .call(REGISTRY_BUS, REGISTRY_PATH, 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [event])
        .catch(() => undefined);
    }
  }

  /** Stops listening to the app's signals (the bus's disconnect does it too). */
  dispose(): void {
    this.#unsubscribe();
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  #onSignal(signal: AtspiSignal): void {
    if (signal.sender !== this.#window.busName) return;
    const childrenChanged = signal.member === 'ChildrenChanged';
    this.#reader.invalidate(signal.path, signal.member);
    const removed =
      signal.member === 'RemoveAccessible'
        ? signal.body[0]
        : childrenChanged && String(signal.body[0]).startsWith('remove')
          ? (signal.body[3] as { value?: unknown } | undefined)?.value
          : undefined;
    if (Array.isArray(removed)) this.#forget({ busName: String(removed[0]), path: String(removed[1]) });
    this.#changes += 1;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  #forget(ref: AccessibleRef): void {
    this.#reader.invalidate(ref.path, 'ChildrenChanged');
    const key = this.#handedOut.get(ref.path);
    if (key === undefined) return;
    this.#handedOut.delete(ref.path);
    this.#keys.forget(ref);
    this.#detached.push(key);
  }

  async #read(): Promise<WindowTree> {
    const tree = await this.#reader.read(this.#window, await this.#popups());
    for (const node of tree.nodes) this.#handedOut.set(node.ref.path, node.key);
    return tree;
  }

  #nextChange(after: number, timeoutMs: number): Promise<number> {
    if (this.#changes !== after) return Promise.resolve(this.#changes);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(this.#changes);
      };
      const timer = setTimeout(wake, Math.max(0, timeoutMs));
      this.#waiters.add(wake);
    });
  }

  async snapshot(request: SnapshotRequest): Promise<RawSnapshot> {
    const tree = await this.#read();
    const detached = this.#detached;
    this.#detached = [];
    const snapshot = await snapshotOf(this.#bus, tree, request, this.#secrets, this.#documentId, detached);
    if (!snapshot) {
      throw new StagegraphError(
        'REF_STALE',
        `The element of key ${request.within} is no longer in the window.`,
      );
    }
    return snapshot;
  }

  async locate(target: TargetQuery, timeoutMs: number): Promise<ResolvedNode> {
    const { tree, node } = await resolveTarget(this.#reads, target, timeoutMs);
    return { documentId: this.#documentId, node: await this.#describe(tree, node) };
  }

  async #describe(tree: WindowTree, node: TreeNode) {
    const origin = (await screenExtents(this.#bus, tree.root)) ?? { x: 0, y: 0 };
    const extras = await extrasOf(this.#bus, node, this.#secrets, origin);
    return rawNode(node, node.parent?.key ?? null, extras, this.#secrets);
  }

  /**
   * Resolves the target and waits (on the app's signals, until `timeoutMs`) for it to be actionable —
   * shown, enabled, editable as the action needs — then performs it once.
   */
  async act(target: TargetQuery, action: TargetedAction, timeoutMs: number): Promise<void> {
    const refused = unsupportedAction(action.type, this.#input);
    if (refused || action.type === 'dragTo') throw refused ?? unsupportedAction('dragTo', this.#input);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.#changes;
      const { node } = await resolveTarget(this.#reads, target, Math.max(0, deadline - Date.now()));
      const problem = actionability(node, action);
      if (!problem) {
        await perform(
          {
            bus: this.#bus,
            input: this.#input,
            changes: () => this.#changes,
            nextChange: (after, ms) => this.#nextChange(after, ms),
          },
          node,
          action,
          deadline,
        );
        return;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw problem;
      await this.#nextChange(seen, remaining);
    }
  }

  /** Keys to whatever has the focus, confirmed by any event of the window's app (confirmed-keys.ts). */
  press(key: string, timeoutMs: number): Promise<void> {
    const keys = { what: `press ${JSON.stringify(key)}`, typed: false };
    const signals = {
      changes: () => this.#changes,
      nextChange: (after: number, ms: number) => this.#nextChange(after, ms),
    };
    return sendConfirmed(this.#bus, signals, null, keys, Date.now() + timeoutMs, () =>
      this.#input.pressKey(key),
    );
  }

  /** AT-SPI has no scroll-by-delta, and a wheel at a guessed point would scroll whatever lies under it. */
  async scrollBy(_target: TargetQuery | undefined, _dx: number, _dy: number): Promise<void> {
    throw new StagegraphError(
      'CAPABILITY_UNSUPPORTED',
      'A desktop window does not scroll by a pixel delta; use scrollIntoView on the element to reach.',
    );
  }

  expect(
    kind: ExpectKind,
    matcher: Matcher,
    target: TargetQuery | undefined,
    timeoutMs: number,
  ): Promise<ExpectationResult> {
    return waitForExpectation(this.#reads, kind, matcher, target, timeoutMs);
  }

  /** The X server's pixels of the window's extents, or of the target's. */
  async screenshot(options: ScreenshotOptions, timeoutMs: number): Promise<Screenshot> {
    const tree = await this.#read();
    const node = options.target
      ? (await resolveTarget(this.#reads, options.target, timeoutMs)).node
      : tree.root;
    const region = await screenExtents(this.#bus, node);
    return this.#input.capture(region, options.format, options.quality);
  }

  /** The window's area of the X screen, captured at maxFps and sent when it changed (x11-screencast.ts). */
  async startScreencast(
    options: ScreencastOptions,
    onFrame: (frame: ScreencastImage) => void,
  ): Promise<ScreencastHandle> {
    const input = this.#input;
    if (!input.capturePixels) {
      throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'This desktop offers no screen capture.');
    }
    const read = async () => {
      const region = await windowExtents(this.#bus, this.#window);
      return region && input.capturePixels ? input.capturePixels(region) : null;
    };
    return startX11Screencast(read, options, onFrame);
  }

  async markSecret(key: number): Promise<void> {
    this.#secrets.add(key);
  }

  /** Counts the app's AT-SPI signals (any object of the app, this window or another). */
  async nextChange(after: number | null, timeoutMs: number): Promise<number> {
    if (after === null) return this.#changes;
    return this.#nextChange(after, timeoutMs);
  }

  async watchRequests(): Promise<RequestWatch> {
    return NO_REQUESTS;
  }

  async navigate(_target: NavigationTarget): Promise<NavigationResult> {
    throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'A desktop window has no URL to navigate.');
  }

  /** A desktop window has no loading document: it is as loaded as it will be. */
  async waitForLoad(_state: LoadState, _timeoutMs: number): Promise<boolean> {
    return true;
  }

  async history(): Promise<NavigationHistory | null> {
    return null;
  }

  async html(_target: TargetQuery | undefined, _outer: boolean, _maxChars: number): Promise<HtmlRead> {
    throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'A desktop window has no HTML; read its snapshot.');
  }

  /** What each node shows as text (textOf), for keys of this window's current tree. */
  async textContents(
    documentId: string,
    keys: readonly number[],
    maxChars: number,
  ): Promise<(string | null)[]> {
    if (documentId !== this.#documentId) return keys.map(() => null);
    const tree = await this.#read();
    const reads = this.#reads;
    return Promise.all(
      keys.map(async (key) => {
        const node = tree.byKey.get(key);
        return node ? (await textOf(reads, node)).slice(0, maxChars) : null;
      }),
    );
  }

  /** The window's distinct accessible ids (AccessibleId, the desktop's test ids) in document order. */
  async testIds(limit: number): Promise<string[]> {
    const tree = await this.#read();
    const ids = await this.#reader.accessibleIds(tree.nodes);
    return [...new Set(ids.filter((id) => id !== ''))].slice(0, limit);
  }

  async countMatches(targets: readonly TargetQuery[]): Promise<number[]> {
    const tree = await this.#read();
    const reads = this.#reads;
    return Promise.all(
      targets.map((target) =>
        matchesOf(reads, tree, target).then(
          (found) => found.length,
          () => 0,
        ),
      ),
    );
  }
}
