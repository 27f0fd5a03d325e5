import type { CDPSession, Page, ConsoleMessage as PlaywrightConsoleMessage, Worker } from 'playwright-core';
import { EARLY_EVENT_LIMIT } from '../../contract/event-relay.js';
import type { ConsoleMessage } from '../../contract/transport-events.js';
import { pageCdpSession } from '../page/page-cdp.js';

/**
 * Object ids of logged values are released this long after the first one arrives, all at once: a flood
 * of logged objects costs one round trip per interval instead of one per line, and the renderer holds them
 * (for us) at most this long.
 */
export const CONSOLE_RELEASE_INTERVAL_MS = 250;
/** The object group V8 wraps console arguments in, per session. */
const CONSOLE_OBJECT_GROUP = 'console';

/** Playwright's `setContent` logs this (console.debug) to learn that the content is in, and never shows it. */
const PLAYWRIGHT_SET_CONTENT_TAG = '--playwright--set--content--';

/** The fields of a CDP RemoteObject that Playwright's console text is made of. */
interface RemoteArg {
  readonly type: string;
  readonly subtype?: string;
  readonly value?: unknown;
  readonly unserializableValue?: string;
  readonly description?: string;
  readonly objectId?: string;
  readonly preview?: { readonly properties: readonly { readonly name: string; readonly value?: string }[] };
}

interface CallFrame {
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

export type DeliverConsole = (message: ConsoleMessage) => void;

/** Pages whose console is already fed: a page tracked twice must not deliver each line twice. */
const fedPages = new WeakSet<Page>();

/**
 * Feeds a window's console to `deliver`. Over the page's raw CDP session (`Runtime.consoleAPICalled`,
 * and `Log.entryAdded` for the browser's own entries, as Playwright reports both): plain protocol events at
 * about the browser's own rate, where Playwright's `page.on('console')`, building and disposing a handle per
 * argument, reached a fifth to a tenth of it (bench/console-fanout.ts). `Runtime.enable` replays what V8
 * stored before we subscribed (up to 1,000 lines of the current document), so a window's start-up lines are
 * delivered too, with their own time. Where no CDP session opens (or it hears no events), Playwright's
 * console events carry it; lines logged while that was being decided wait for the answer. `cdpSession` is
 * the page's shared one unless a caller knows better (a test of the fallback).
 */
export async function feedConsole(
  page: Page,
  windowId: string,
  deliver: DeliverConsole,
  cdpSession: Promise<CDPSession | null> = pageCdpSession(page),
): Promise<void> {
  if (fedPages.has(page)) return;
  fedPages.add(page);
  const waiting: PlaywrightConsoleMessage[] = [];
  const hold = (message: PlaywrightConsoleMessage) => {
    waiting.push(message);
    if (waiting.length > EARLY_EVENT_LIMIT) releaseHandles(waiting.shift());
  };
  page.on('console', hold);
  const session = await cdpSession;
  page.off('console', hold);
  if (!session) {
    for (const message of waiting) deliver(consoleMessageOf(message, 'RENDERER', windowId));
    page.on('console', (message) => deliver(consoleMessageOf(message, 'RENDERER', windowId)));
    return;
  }
  // Runtime.enable replays these lines below, from V8's own store.
  for (const message of waiting) releaseHandles(message);
  followWorkers(page, windowId, deliver);
  await feedFromSession(session, windowId, deliver);
}

async function feedFromSession(session: CDPSession, windowId: string, deliver: DeliverConsole) {
  const releaser = new ObjectReleaser(session);
  session.on('Runtime.consoleAPICalled', (event) => {
    // Playwright skips these too: a console call with no context (a detached frame's) has nowhere to be.
    if (event.executionContextId === 0) return;
    releaser.noteArgs(event.args);
    const text = consoleText(event.args);
    if (event.type === 'debug' && text.startsWith(PLAYWRIGHT_SET_CONTENT_TAG)) return;
    const frame = event.stackTrace?.callFrames[0];
    deliver(rendererMessage(event.timestamp, event.type, text, windowId, frame));
  });
  session.on('Log.entryAdded', ({ entry }) => {
    for (const arg of entry.args ?? []) releaser.releaseOne(arg.objectId);
    // A worker's entries reach the page through the worker itself (followWorkers).
    if (entry.source === 'worker') return;
    const frame = { url: entry.url ?? '', lineNumber: entry.lineNumber ?? 0, columnNumber: 0 };
    deliver(rendererMessage(entry.timestamp, entry.level, entry.text, windowId, frame));
  });
  // A closed page answers neither: its console is over.
  await Promise.all([
    session.send('Runtime.enable').catch(() => undefined),
    session.send('Log.enable').catch(() => undefined),
  ]);
}

function rendererMessage(
  timestamp: number,
  type: string,
  text: string,
  windowId: string,
  frame: CallFrame | undefined,
): ConsoleMessage {
  const time = new Date(timestamp);
  if (!frame?.url) return { time, type, text, source: 'RENDERER', windowId };
  const location = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
  return { time, type, text, source: 'RENDERER', windowId, location };
}

/** Workers log on their own sessions, which the page's does not see; Playwright's events carry them. */
function followWorkers(page: Page, windowId: string, deliver: DeliverConsole): void {
  const follow = (worker: Worker) =>
    worker.on('console', (message) => deliver(consoleMessageOf(message, 'RENDERER', windowId)));
  for (const worker of page.workers()) follow(worker);
  page.on('worker', follow);
}

/**
 * A console line's text exactly as Playwright's `ConsoleMessage.text()` gives it: each argument's
 * preview (server/chromium/crExecutionContext.ts renderPreview, as a JSHandle keeps it), joined by spaces.
 */
export function consoleText(args: readonly RemoteArg[]): string {
  // Most lines are one string: no array to build and join for those.
  const first = args[0];
  if (args.length === 1 && first?.type === 'string') return String(first.value);
  return args.map(argText).join(' ');
}

function argText(arg: RemoteArg): string {
  if (!arg.objectId)
    return String(arg.unserializableValue ? unserializable(arg.unserializableValue) : arg.value);
  // Playwright previews a node asynchronously; the text is taken before that preview exists.
  if (arg.subtype === 'node') return 'JSHandle@node';
  return objectPreview(arg) || `JSHandle@${arg.subtype || arg.type}`;
}

/** Playwright parses only these; anything else (a BigInt) reads as undefined, and -0 prints as 0. */
function unserializable(value: string): number | undefined {
  switch (value) {
    case 'NaN':
      return Number.NaN;
    case 'Infinity':
      return Number.POSITIVE_INFINITY;
    case '-Infinity':
      return Number.NEGATIVE_INFINITY;
    case '-0':
      return -0;
    default:
      return undefined;
  }
}

function objectPreview(arg: RemoteArg): string | undefined {
  if (arg.description === 'Object' && arg.preview)
    return `{${arg.preview.properties.map(({ name, value }) => `${name}: ${value}`).join(', ')}}`;
  if (arg.subtype === 'array' && arg.preview) return sparseArrayText(arg.preview.properties);
  return arg.description;
}

/** Playwright's rendering of an array preview: holes as `empty` / `empty x N`, non-index keys left out. */
function sparseArrayText(properties: readonly { readonly name: string; readonly value?: string }[]): string {
  const items = properties
    .map(({ name, value }) => ({ index: +name, value }))
    .filter(({ index }) => !Number.isNaN(index) && index >= 0)
    .sort((a, b) => a.index - b.index);
  const tokens: string[] = [];
  let last = -1;
  for (const { index, value } of items) {
    const holes = index - last - 1;
    if (holes === 1) tokens.push('empty');
    else if (holes > 1) tokens.push(`empty x ${holes}`);
    tokens.push(String(value));
    last = index;
  }
  return `[${tokens.join(', ')}]`;
}

/**
 * Releases the renderer's references to logged objects that our session was given: without it the renderer
 * keeps every object ever logged alive for as long as the session lasts.
 */
class ObjectReleaser {
  readonly #session: CDPSession;
  #timer: NodeJS.Timeout | undefined;

  constructor(session: CDPSession) {
    this.#session = session;
  }

  noteArgs(args: readonly RemoteArg[]): void {
    if (this.#timer || !args.some((arg) => arg.objectId)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#session
        .send('Runtime.releaseObjectGroup', { objectGroup: CONSOLE_OBJECT_GROUP })
        .catch(() => undefined);
    }, CONSOLE_RELEASE_INTERVAL_MS);
    this.#timer.unref();
  }

  releaseOne(objectId: string | undefined): void {
    if (objectId) this.#session.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
  }
}

/**
 * A Playwright console message as the contract carries it. Playwright keeps a handle per argument alive
 * until the page closes (~3 KB per line, measured by test/flood.e2e); only the text is kept, so the handles
 * are released at once, or a chatty page grows memory forever.
 */
export function consoleMessageOf(
  message: PlaywrightConsoleMessage,
  source: ConsoleMessage['source'],
  windowId?: string,
): ConsoleMessage {
  releaseHandles(message);
  const location = message.location();
  const stamp = message.timestamp();
  return {
    time: new Date(Number.isFinite(stamp) ? stamp : Date.now()),
    type: message.type(),
    text: message.text(),
    source,
    ...(windowId ? { windowId } : {}),
    ...(location.url ? { location: `${location.url}:${location.lineNumber}:${location.columnNumber}` } : {}),
  };
}

function releaseHandles(message: PlaywrightConsoleMessage | undefined): void {
  for (const arg of message?.args() ?? []) void arg.dispose().catch(() => undefined);
}
