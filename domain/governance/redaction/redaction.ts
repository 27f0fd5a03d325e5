import type { TargetInfo } from '../request/governed-request.js';

declare const redactedBrand: unique symbol;
/**
 * A value that has been through `Redactor.redact`. The audit log, the approvals broker and their events
 * accept only this type, so a secret in clear cannot reach them by forgetting a call.
 */
export type Redacted<T> = T & { readonly [redactedBrand]: true };

/**
 * How much of an argument the audit trail and approvers may see, declared by the schema from each field's
 * argument types: `clear` (names, paths, locators: shown, scrubbed by pattern), `typed` (text typed into
 * the target: shown unless the target or the caller makes it secret), `redact` (values: storage and cookie
 * values, bodies, payloads). An object maps argument or input-field names to theirs; a name it lacks is
 * redacted, so an argument nobody classified cannot leak by omission.
 */
export type ArgumentDisclosure =
  | 'clear'
  | 'typed'
  | 'redact'
  | { readonly [name: string]: ArgumentDisclosure };

export interface RedactionContext {
  readonly operation?: string;
  /** The element the value is typed into: a password field makes the typed value secret. */
  readonly target?: TargetInfo | null;
  /** The caller marked the value secret (`secret: true` on fill / type). */
  readonly secret?: boolean;
  /** The schema's classification of the value's parts; without it every string is shown, scrubbed. */
  readonly disclosure?: ArgumentDisclosure;
}

export interface RedactionPattern {
  /** Shown in the placeholder, e.g. `[REDACTED:email]`. */
  readonly name: string;
  readonly pattern: RegExp;
  /** A match this rejects stays in clear (the Luhn check of a card number: most 16-digit runs are not cards). */
  readonly valid?: (match: string) => boolean;
}

/**
 * Strings in clear: things that look like credentials or personal data wherever they appear. Each is
 * linear in the text: a pattern that opens with a run of characters (an e-mail's local part, a JWT) is
 * tried only where that run starts (a lookbehind), never again from each character inside it — from
 * every character of a 100,000-character word the e-mail pattern scanned the rest of it (7.6 s), and the
 * JWT pattern the same for `-eyJ` repeated. The rest fail within a fixed number of characters or match.
 */
export const DEFAULT_REDACTION_PATTERNS: readonly RedactionPattern[] = [
  { name: 'bearer', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi },
  { name: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
  {
    name: 'api-key',
    pattern:
      /\b(?:[sprk]k_(?:live|test)_[A-Za-z0-9]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|sk-[A-Za-z0-9_-]{20,})/g,
  },
  {
    // `session_token=`, `x-api-key=`: a prefix of word characters is allowed, tried only from the start of
    // the run (the lookbehind) and lazily, so each run is read once.
    name: 'credential',
    pattern: /(?<![\w-])[\w-]*?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)=[^\s&#;]+/gi,
  },
  {
    // Visa, Mastercard, Amex, Discover and the like: 13 to 19 digits, in groups split by spaces or dashes,
    // starting 2 to 6; Luhn-checked, so a 13-digit millisecond time or an order number stays readable.
    // Starts only where a run of digits starts, and reads at most 34 characters from there.
    name: 'card',
    pattern: /(?<![\d])[2-6]\d{3}(?:[ -]?\d){9,15}(?![\d])/g,
    valid: isCardNumber,
  },
  {
    name: 'email',
    pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
  },
  {
    // A US social security number as written, 3-2-4 digits, without the numbers never issued (area 000,
    // 666 or 9xx, group 00, serial 0000), so a part number such as 900-00-0000 stays readable. Fixed length.
    name: 'national-id',
    pattern: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g,
  },
];

/** Object keys whose string values are secrets whatever they look like. */
export const DEFAULT_SECRET_KEYS =
  /^(?:.*pass(?:word|wd|phrase|code)|pass|pwd|.*secret|.*token|.*api[-_]?key|authorization|cookies?|credentials?|private[-_]?key|session[-_]?id)$/i;

/** Names of fields that typically take a secret, for targets whose input type is not known. */
const SECRET_FIELD_NAME =
  /pass(?:word|wd|phrase|code)|\bpin\b|secret|api[-_ ]?key|\btoken\b|\bcvc\b|\bcvv\b|security code/i;

/** The arguments that carry what is typed: secret as a whole when the field or the caller says so. */
const TYPED_VALUE_KEYS = new Set(['value', 'values', 'text', 'key', 'keys']);

/**
 * The audit trail and events describe operations, not payloads: a longer string (a pasted document) is cut
 * to this length, its tail summarised, so one fill cannot bloat the log.
 */
export const MAX_REDACTED_STRING_LENGTH = 2_048;
/**
 * How far past that cut a string is scrubbed: a secret that starts before the cut and ends within this
 * many characters after it (an e-mail at most 254, a JWT or bearer token a few hundred to a couple of
 * thousand) is still whole for its pattern, so its kept head is redacted. What lies beyond is never read,
 * so a megabyte argument costs what a 6 KB one does, whatever the configured patterns.
 */
export const SCRUB_OVERLAP = 4_096;

export interface RedactorOptions {
  /** Replaces the default patterns. */
  readonly patterns?: readonly RedactionPattern[];
  /** Added to the patterns (defaults or replaced). */
  readonly extraPatterns?: readonly RedactionPattern[];
  /**
   * Added too, read at each use: the active policy's own patterns (`redact:` in the policy file), so a
   * reload changes what is masked from the next value on. They are compiled global by the policy.
   */
  readonly currentPatterns?: () => readonly RedactionPattern[];
  readonly secretKeys?: RegExp;
}

/** The one redaction used for the audit log, approval requests and every event derived from them. */
export class Redactor {
  #patterns: RedactionPattern[];
  #current: () => readonly RedactionPattern[];
  #secretKeys: RegExp;

  constructor(options: RedactorOptions = {}) {
    // Global flag forced: `replace` must catch every occurrence, not the first.
    this.#patterns = [
      ...(options.patterns ?? DEFAULT_REDACTION_PATTERNS),
      ...(options.extraPatterns ?? []),
    ].map(({ name, pattern, valid }) => ({
      name,
      pattern: pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`),
      ...(valid ? { valid } : {}),
    }));
    this.#current = options.currentPatterns ?? (() => []);
    this.#secretKeys = options.secretKeys ?? DEFAULT_SECRET_KEYS;
  }

  /** Returns a copy with secrets replaced by `[REDACTED:<why>]`; the shape is kept so readers can still see what was sent. */
  redact<T>(value: T, context: RedactionContext = {}): Redacted<T> {
    const typedIsSecret = context.secret === true || isSecretField(context.target);
    const cookies = /cookie/i.test(context.operation ?? '');
    return this.#walk(
      value,
      { typedIsSecret, cookies, depth: 0 },
      undefined,
      context.disclosure,
    ) as Redacted<T>;
  }

  /** Scrubs free text (a target's name, a message) by pattern only. */
  redactText(text: string): Redacted<string> {
    return this.#scrub(text) as Redacted<string>;
  }

  /**
   * Scrubs all of `text` by pattern, uncut: for a body or a log line whose length its caller has already
   * bounded (each pattern is linear, so the cost is the text's length times the number of patterns).
   */
  redactWhole(text: string): Redacted<string> {
    return this.#replaceAll(text) as Redacted<string>;
  }

  #walk(
    value: unknown,
    scope: WalkScope,
    key: string | undefined,
    disclosure: ArgumentDisclosure | undefined,
  ): unknown {
    if (typeof value === 'string') {
      if (key !== undefined && this.#secretKeys.test(key)) return placeholder('secret');
      if (disclosure === 'redact' || (disclosure !== undefined && typeof disclosure === 'object'))
        return placeholder('value');
      const typed =
        disclosure === 'typed' ||
        (disclosure === undefined && scope.depth === 1 && key !== undefined && TYPED_VALUE_KEYS.has(key));
      if (typed && scope.typedIsSecret) return placeholder('secret');
      if (scope.cookies && key === 'value') return placeholder('cookie');
      return this.#scrub(value);
    }
    if (value === null || typeof value !== 'object') return value;
    const inner = {
      typedIsSecret: scope.typedIsSecret,
      cookies: scope.cookies || (key !== undefined && /^cookies?$/i.test(key)),
      depth: scope.depth + 1,
    };
    if (Array.isArray(value)) {
      // Elements of a typed-value list (`values: [...]`) are as secret as the list.
      const inherit =
        scope.depth === 1 && key !== undefined && TYPED_VALUE_KEYS.has(key) && scope.typedIsSecret;
      return value.map((item) =>
        inherit && typeof item === 'string'
          ? placeholder('secret')
          : this.#walk(item, inner, key, disclosure),
      );
    }
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value))
      out[name] = this.#walk(item, inner, name, partOf(disclosure, name));
    return out;
  }

  #scrub(text: string): string {
    const window = text.slice(0, MAX_REDACTED_STRING_LENGTH + SCRUB_OVERLAP);
    const out = this.#replaceAll(window);
    const unread = text.length - window.length;
    if (out.length <= MAX_REDACTED_STRING_LENGTH && unread === 0) return out;
    // Placeholders shorter than what they replaced can leave the scrubbed window under the cut.
    const cut = Math.max(0, out.length - MAX_REDACTED_STRING_LENGTH) + unread;
    return `${out.slice(0, MAX_REDACTED_STRING_LENGTH)}…[+${cut} chars]`;
  }

  #replaceAll(text: string): string {
    let out = text;
    for (const { name, pattern, valid } of [...this.#patterns, ...this.#current()]) {
      const shown = placeholder(name);
      out = valid
        ? out.replace(pattern, (match) => (valid(match) ? shown : match))
        : out.replace(pattern, shown);
    }
    return out;
  }
}

/** Whether the digits of `text` (separators ignored) pass the Luhn check card numbers carry. */
export function isCardNumber(text: string): boolean {
  let sum = 0;
  let digits = 0;
  for (let i = text.length - 1; i >= 0; i -= 1) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) continue;
    const doubled = digits % 2 === 1 ? code * 2 : code;
    sum += doubled > 9 ? doubled - 9 : doubled;
    digits += 1;
  }
  return digits >= 13 && digits <= 19 && sum % 10 === 0;
}

interface WalkScope {
  readonly typedIsSecret: boolean;
  readonly cookies: boolean;
  readonly depth: number;
}

/** A part's classification: a leaf's applies to everything under it, an object's unnamed parts are redacted. */
function partOf(disclosure: ArgumentDisclosure | undefined, name: string): ArgumentDisclosure | undefined {
  if (disclosure === undefined || typeof disclosure === 'string') return disclosure;
  return disclosure[name] ?? 'redact';
}

function isSecretField(target: TargetInfo | null | undefined): boolean {
  if (!target) return false;
  return target.inputType?.toLowerCase() === 'password' || SECRET_FIELD_NAME.test(target.name);
}

function placeholder(why: string): string {
  return `[REDACTED:${why}]`;
}
