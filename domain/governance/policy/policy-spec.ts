import type { Confidence } from '../../interaction/selector/confidence.js';
import type { ActedOnKind, OperationKind } from '../request/governed-request.js';
import type { RiskTier } from './risk.js';

export const DECISIONS = ['ALLOW', 'DENY', 'ASK'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * What ASK becomes when no approver is watching: FAIL raises APPROVAL_UNAVAILABLE (the safe default: an
 * unattended agent learns it needs a human), DENY and ALLOW settle it without one, for unattended runs.
 */
export const NON_INTERACTIVE_MODES = ['FAIL', 'DENY', 'ALLOW'] as const;
export type NonInteractiveMode = (typeof NON_INTERACTIVE_MODES)[number];

/**
 * Who may read values in clear with `reveal: true` (cookies, web storage, captured requests): AGENT (the
 * default: agents drive the app and already type into it) or NONE (nobody, for runs whose agent must
 * never hold the app's secrets). Approvers and observers never may.
 */
export const REVEAL_MODES = ['AGENT', 'NONE'] as const;
export type RevealMode = (typeof REVEAL_MODES)[number];

export interface SessionMatchSpec {
  /** Path glob on the executable. */
  readonly executable?: string;
  /** Path glob on the app's main script or package. */
  readonly main?: string;
  readonly windowTitle?: string;
  readonly windowUrl?: string;
}

export interface TargetMatchSpec {
  /** Any of these kinds (element, menuItem, contextMenuItem, tray, program, location); absent: any kind. */
  readonly kind?: readonly ActedOnKind[];
  /** Any of these roles (text patterns). */
  readonly role?: readonly string[];
  /**
   * A text pattern on the target's path joined with " > ": `File > Delete*` for a menu item, the command
   * line (`/usr/bin/node > *`) for a program.
   */
  readonly path?: string;
  readonly name?: string;
  readonly selector?: string;
  /**
   * Any of these confidences (STABLE_ID, ROLE_NAME, TEXT, SPATIAL, OCR): how the element was found. A target
   * whose confidence is unknown (not a page element, or a locator the preview could not score) never matches.
   */
  readonly confidence?: readonly Confidence[];
  /** Confidence strictly weaker than this one: `ROLE_NAME` matches TEXT, SPATIAL and OCR. */
  readonly confidenceBelow?: Confidence;
}

/** One rule as written in the policy file; every matcher present must match, absent ones match anything. */
export interface RuleSpec {
  readonly id?: string;
  readonly description?: string;
  /** Any of these operation names (text patterns, e.g. `set*`). */
  readonly operation?: readonly string[];
  readonly kind?: OperationKind;
  /** Any of these tiers. */
  readonly risk?: readonly RiskTier[];
  readonly session?: SessionMatchSpec;
  readonly target?: TargetMatchSpec;
  /** Dot paths into the arguments: a pattern on the value, or `true` / `false` for present / absent. */
  readonly args?: Readonly<Record<string, string | boolean>>;
  readonly decision: Decision;
  readonly nonInteractive?: NonInteractiveMode;
}

/** A pattern of the operator's own, masked like the built-in ones: `[REDACTED:<name>]`. */
export interface RedactSpec {
  /** Shown in the placeholder: lower-case letters, digits and dashes. */
  readonly name: string;
  /** A regular expression literal, `/source/flags`, searched everywhere values are redacted. */
  readonly pattern: string;
}

export interface PolicySpec {
  /** Decisions when no rule matches; tiers left out keep the built-in defaults. */
  readonly defaults?: Partial<Record<RiskTier, Decision>>;
  readonly nonInteractive?: NonInteractiveMode;
  /** Who may read values in clear; AGENT when absent. */
  readonly reveal?: RevealMode;
  /** Replaces the built-in destructive words. */
  readonly destructiveWords?: readonly string[];
  /** Added to the destructive words (built-in or replaced). */
  readonly extraDestructiveWords?: readonly string[];
  readonly rules?: readonly RuleSpec[];
  /** Added to the built-in redaction patterns (e-mail, card, national id, credentials). */
  readonly redact?: readonly RedactSpec[];
}

/** Reads and actions go ahead, high risk asks a human, code and coordinates are refused unless a rule allows. */
export const BUILT_IN_DEFAULTS: Readonly<Record<RiskTier, Decision>> = {
  LOW: 'ALLOW',
  MEDIUM: 'ALLOW',
  HIGH: 'ASK',
  CRITICAL: 'DENY',
};

/** A validation failure located by field path (`rules[2].target.name`); the loader adds the file. */
export class PolicySpecError extends Error {
  readonly field: string;
  readonly ruleIndex: number | null;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'PolicySpecError';
    this.field = field;
    const index = /^rules\[(\d+)\]/.exec(field)?.[1];
    this.ruleIndex = index === undefined ? null : Number(index);
  }
}
