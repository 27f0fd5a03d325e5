/**
 * The seams behind the pixels of a session's renderers: network capture and stubs, JS dialogs, cookies and
 * web storage, and the fake clock. A transport offers each one only where it declares the matching
 * capability (INTERCEPT, DIALOGS, STORAGE, CLOCK); nothing here knows GraphQL.
 */

/** What a capture records: every field absent or empty means "any". */
export interface NetworkFilter {
  /** Globs on the whole URL: `*` matches any run of characters (`*\/api/*`). */
  readonly urlPatterns?: readonly string[];
  /** Upper-case HTTP methods. */
  readonly methods?: readonly string[];
  /** Chromium's resource types: document, fetch, xhr, image, script, stylesheet, ... */
  readonly resourceTypes?: readonly string[];
}

export interface NetworkCaptureSpec {
  readonly filter: NetworkFilter;
  /** Keep request and response bodies (bounded by `maxBodyBytes`). */
  readonly bodies: boolean;
  /** Keep non-text bodies too, as base64; text types only when false. */
  readonly binaryBodies: boolean;
  readonly maxBodyBytes: number;
}

export interface NetworkBody {
  readonly encoding: 'TEXT' | 'BASE64';
  readonly data: string;
  /** The body's full size in bytes, before truncation. */
  readonly size: number;
  readonly truncated: boolean;
}

/** One finished (or failed) request as the transport saw it. */
export interface NetworkRecord {
  readonly time: Date;
  readonly windowId: string | null;
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
  /** Null when no response arrived (failed or aborted). */
  readonly status: number | null;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** Milliseconds from the request's start to the end of its response (or its failure). */
  readonly durationMs: number | null;
  readonly failure: string | null;
  /** Ids of the stubs that answered it, if one did. */
  readonly stubId: string | null;
  readonly requestBody: NetworkBody | null;
  readonly responseBody: NetworkBody | null;
}

export interface StubSpec {
  readonly pattern: string;
  /** Only these methods; any when empty. */
  readonly methods: readonly string[];
  readonly status: number | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly abort: boolean;
  readonly delayMs: number;
  /** Matches answered before the stub retires itself; unlimited when null. */
  readonly times: number | null;
}

export interface StubInfo extends StubSpec {
  readonly id: string;
  readonly hits: number;
  /** False once `times` matches are used up or the stub was removed. */
  readonly active: boolean;
}

/** A request that failed, or was answered with status >= 400: kept always, whether a capture is armed or not. */
export interface NetworkProblem {
  /** When the gateway heard of the failure or the response. */
  readonly time: Date;
  readonly windowId: string | null;
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
  /** The response's status (>= 400); null for a request that got no response. */
  readonly status: number | null;
  /** The network error (net::ERR_…); null for a request that got a response. */
  readonly failure: string | null;
}

/** The bounded record of network problems, oldest first, with how many were pushed out of it. */
export interface NetworkProblemRead {
  readonly problems: readonly NetworkProblem[];
  readonly overflowed: number;
}

export interface NetworkControl {
  /** Starts recording; the transport listens only while at least one capture is armed. */
  arm(id: string, spec: NetworkCaptureSpec): Promise<void>;
  disarm(id: string): Promise<void>;
  stub(id: string, spec: StubSpec): Promise<StubInfo>;
  unstub(id: string): Promise<StubInfo | undefined>;
  stubs(): StubInfo[];
  /**
   * Requests never recorded because too many were in flight on a page at once and the oldest were
   * forgotten before they finished; counted since the session began, never decreasing.
   */
  readonly droppedInFlight: number;
  /** Failed requests and responses with status >= 400 of every page, recorded from the session's start. */
  problems(): NetworkProblemRead;
}

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

export interface DialogSeen {
  readonly type: DialogType;
  readonly message: string;
  readonly defaultValue: string;
  readonly windowId: string | null;
}

export interface DialogDecision {
  readonly accept: boolean;
  /** What a prompt answers when accepted; its default value when absent. */
  readonly promptText?: string;
}

export interface DialogControl {
  /**
   * Who answers dialogs from now on; called synchronously for each one. Until a decider is set every
   * dialog is dismissed, so an app never hangs on one.
   */
  decideWith(decide: (dialog: DialogSeen) => DialogDecision): void;
}

export interface Cookie {
  readonly name: string;
  readonly value: string;
  readonly domain: string;
  readonly path: string;
  /** Seconds since the epoch; -1 for a session cookie. */
  readonly expires: number;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: 'Strict' | 'Lax' | 'None';
}

export interface CookieToSet {
  readonly name: string;
  readonly value: string;
  /** Either `url`, or `domain` (with `path`). */
  readonly url?: string;
  readonly domain?: string;
  readonly path?: string;
  readonly expires?: number;
  readonly httpOnly?: boolean;
  readonly secure?: boolean;
  readonly sameSite?: 'Strict' | 'Lax' | 'None';
}

export type StorageArea = 'local' | 'session';

/** One fixed web-storage operation; the transport runs its own serializer for it, never caller code. */
export type StorageOperation =
  | { readonly op: 'items' }
  | { readonly op: 'set'; readonly key: string; readonly value: string }
  | { readonly op: 'remove'; readonly key: string }
  | { readonly op: 'clear' };

export interface StorageControl {
  cookies(urls: readonly string[]): Promise<Cookie[]>;
  setCookies(cookies: readonly CookieToSet[]): Promise<void>;
  clearCookies(filter: { readonly name?: string; readonly domain?: string }): Promise<void>;
  /** The origins of open windows, where web storage can be reached. */
  origins(): Promise<string[]>;
  /** Runs one operation on an origin's storage; returns its items afterwards. Undefined: origin not open. */
  webStorage(
    origin: string,
    area: StorageArea,
    operation: StorageOperation,
  ): Promise<[string, string][] | undefined>;
}

export interface ClockControl {
  install(time: Date | null): Promise<void>;
  setFixedTime(time: Date): Promise<void>;
  setSystemTime(time: Date): Promise<void>;
  /** Jumps ahead, firing due timers once each (Playwright's fastForward). */
  advance(ms: number): Promise<void>;
  /** Runs every timer due within `ms`, in order. */
  runFor(ms: number): Promise<void>;
  pauseAt(time: Date): Promise<void>;
  resume(): Promise<void>;
  /** The fake time as a window's page reads it; null when no window answers. */
  now(): Promise<Date | null>;
}
