import {
  type GovernedRequest,
  type JsonObject,
  PATH_SEPARATOR,
  type TargetInfo,
} from '../request/governed-request.js';

/** Ordered from least to most dangerous. */
export const RISK_TIERS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type RiskTier = (typeof RISK_TIERS)[number];

export interface RiskAssessment {
  readonly tier: RiskTier;
  readonly reasons: readonly string[];
}

/**
 * Words that make an action on a target irreversible or costly often enough to ask first. Matched at the
 * start of a word, so "Delete", "Deleting" and "Remove item" match but "undeleted" does not.
 */
export const DEFAULT_DESTRUCTIVE_WORDS: readonly string[] = [
  'delete',
  'remove',
  'format',
  'submit',
  'pay',
  'purchase',
  'buy',
  'order',
  'checkout',
  'send',
  'erase',
  'drop',
  'reset',
  'wipe',
  'destroy',
  'uninstall',
  'transfer',
  'confirm',
  'publish',
  'overwrite',
  'discard',
  'revoke',
  'terminate',
  'shutdown',
  'kill',
];

/** Operations that run arbitrary code: the schema hides them unless --allow-eval, the policy still weighs them. */
export const DEFAULT_EVAL_OPERATIONS: readonly string[] = [
  'eval',
  'evalMain',
  'evalRenderer',
  'evaluate',
  // Runs the app's main-process handlers with any arguments: as far-reaching as evalMain.
  'invokeIpc',
];

/** Pointer operations addressed by screen coordinates: nothing says what lies under the pointer. */
export const DEFAULT_RAW_POINTER_OPERATIONS: readonly string[] = [
  'mouseClick',
  'mouseMove',
  'mouseDown',
  'mouseUp',
  'mouseWheel',
];

/**
 * Actions on page elements whose effect follows the element's meaning, so a destructive name raises them
 * to HIGH. Other kinds of target say so themselves (`activates`): a menu item invoked is a menu item used.
 */
export const DEFAULT_TARGETED_ACTIONS: readonly string[] = [
  'click',
  'dblclick',
  'tap',
  'fill',
  'type',
  'press',
  'selectOption',
  'setChecked',
  'setInputFiles',
  'dragTo',
];

/**
 * Operations whose `position` argument makes them coordinate clicks, with or without a target: the offset
 * is not confined to the target's box, so what lies under the pointer need not be what the policy saw.
 */
const CLICK_OPERATIONS = new Set(['click', 'dblclick', 'tap']);

export interface RiskOptions {
  readonly destructiveWords?: readonly string[];
  readonly evalOperations?: readonly string[];
  readonly rawPointerOperations?: readonly string[];
  readonly targetedActions?: readonly string[];
}

/** Scores operations; build one per policy (the word list compiles to one regular expression). */
export class RiskScorer {
  #destructive: RegExp | null;
  #eval: ReadonlySet<string>;
  #rawPointer: ReadonlySet<string>;
  #targeted: ReadonlySet<string>;

  constructor(options: RiskOptions = {}) {
    const words = options.destructiveWords ?? DEFAULT_DESTRUCTIVE_WORDS;
    this.#destructive =
      words.length === 0 ? null : new RegExp(`\\b(?:${words.map(escapeRegExp).join('|')})`, 'i');
    this.#eval = new Set(options.evalOperations ?? DEFAULT_EVAL_OPERATIONS);
    this.#rawPointer = new Set(options.rawPointerOperations ?? DEFAULT_RAW_POINTER_OPERATIONS);
    this.#targeted = new Set(options.targetedActions ?? DEFAULT_TARGETED_ACTIONS);
  }

  score(request: GovernedRequest): RiskAssessment {
    const { operation, kind, target, args } = request;
    if (this.#eval.has(operation)) return { tier: 'CRITICAL', reasons: [`${operation} runs arbitrary code`] };
    if (this.#rawPointer.has(operation))
      return { tier: 'CRITICAL', reasons: [`${operation} acts at screen coordinates`] };
    if (isCoordinateClick(operation, args))
      return {
        tier: 'CRITICAL',
        reasons: [
          target === null
            ? `${operation} at a position with no target is a coordinate click`
            : `${operation} at a position is a coordinate click: the offset may land outside ${target.role} "${target.name}"`,
        ],
      };
    if (kind === 'query') return { tier: 'LOW', reasons: ['reads do not change the app'] };
    // Whatever the thing is — element, menu item, tray — its name is read the same way; whether acting on
    // it is activating it is the previewer's to say, else (page elements) the operation's.
    if (target && (target.activates ?? this.#targeted.has(operation))) {
      const word = this.#destructive?.exec(target.name)?.[0];
      if (word !== undefined)
        return {
          tier: 'HIGH',
          reasons: [`${operation} on ${describeTarget(target)}, whose name contains "${word}"`],
        };
    }
    return { tier: 'MEDIUM', reasons: [`${operation} changes the app`] };
  }
}

/** `menuitem "Delete All Notes" (File > Delete All Notes)`: what the approver and the reasons name. */
export function describeTarget(target: TargetInfo): string {
  const where = target.path && target.path.length > 1 ? ` (${target.path.join(PATH_SEPARATOR)})` : '';
  return `${target.role} "${target.name}"${where}`;
}

/** A click at a `position`, with or without a target: the pointer goes to coordinates. */
export function isCoordinateClick(operation: string, args: JsonObject): boolean {
  return CLICK_OPERATIONS.has(operation) && hasPosition(args);
}

function hasPosition(args: JsonObject): boolean {
  return (args.position !== undefined && args.position !== null) || (args.x != null && args.y != null);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
