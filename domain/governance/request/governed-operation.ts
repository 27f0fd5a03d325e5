import type { WindowInfo } from '../../../transports/contract/transport-events.js';
import type { TargetRequest } from '../../interaction/target-input.js';
import type { ActedOnKind, JsonObject, JsonValue } from './governed-request.js';

/**
 * What a mutation declares about itself for the chokepoint, naming its own arguments. The schema checks
 * every name against the field's arguments when it compiles (schema/gates/field-options.ts), so renaming an
 * argument cannot quietly take the session or the target out of the policy's view.
 */
export interface GovernedOperation {
  /** The Mutation field's name, e.g. `click`. */
  readonly name: string;
  /**
   * approve / deny: answering an approval is reserved to approvers by the broker, and putting the answer
   * itself to the policy could ask for an approval of the approval. Rate-limited and audited all the same.
   */
  readonly answersApproval: boolean;
  /** The argument naming the session acted on; null when it acts on none that exists yet (launch). */
  readonly session: string | null;
  /** The argument naming the window it acts in, by id. */
  readonly window: string | null;
  /** What it acts on and the argument naming it, previewed before the policy decides. */
  readonly actsOn: { readonly kind: ActedOnKind; readonly argument: string } | null;
  readonly risk: RiskInputs;
}

/** Arguments besides session, window and target that change how an operation is previewed or recorded. */
export interface RiskInputs {
  /** Its own wait for the target: the preview never waits longer. */
  readonly wait?: string;
  /** A flag that makes whatever it types secret, whatever the target. */
  readonly secret?: string;
  /** The tray event it emits: only clicks use the tray, so only they weigh the tray's name. */
  readonly event?: string;
}

/** Where an operation acts, as named by its arguments. */
export interface PreviewRequest {
  /** False for operations that act on no existing session (launch). */
  readonly actsOnSession: boolean;
  readonly sessionId?: string | null;
  readonly window?: string | null;
  /** The page element it names, for operations on elements. */
  readonly target?: TargetRequest | null;
  /** The operation's own actionability wait; the preview never waits longer. */
  readonly timeoutMs?: number | null;
  /** What the operation acts on, as its field declares. */
  readonly actsOn?: ActedOnKind | null;
  /** For things other than page elements, the argument naming it: a menu path, a tray id, a program. */
  readonly subject?: JsonValue | null;
  /** For trays: the event it emits. */
  readonly event?: string | null;
  /** Read what is acted on anew rather than from what the session last read (a retry after a change). */
  readonly fresh?: boolean;
  /**
   * The window as the same operation just described it (title and URL read from its page), so the preview
   * does not ask again; left out, the preview reads the window's current title itself.
   */
  readonly described?: WindowInfo | null;
}

/** Where an operation acts, read from its arguments by the names it declared. */
export function previewRequestOf(operation: GovernedOperation, args: JsonObject): PreviewRequest {
  const read = (name: string | null | undefined) => (name == null ? undefined : args[name]);
  const sessionId = read(operation.session);
  const window = read(operation.window);
  const named = operation.actsOn ? (read(operation.actsOn.argument) ?? null) : null;
  const onElement = operation.actsOn?.kind === 'element';
  const timeoutMs = read(operation.risk.wait);
  const event = read(operation.risk.event);
  return {
    actsOnSession: operation.session !== null,
    sessionId: typeof sessionId === 'string' ? sessionId : null,
    window: typeof window === 'string' ? window : null,
    actsOn: operation.actsOn?.kind ?? null,
    target: onElement ? (named as TargetRequest | null) : null,
    subject: onElement ? null : named,
    timeoutMs: typeof timeoutMs === 'number' ? timeoutMs : null,
    event: typeof event === 'string' ? event : null,
  };
}

/** Whether the caller marked what the operation types secret, through the flag it declared. */
export function markedSecret(operation: GovernedOperation, args: JsonObject): boolean {
  return operation.risk.secret !== undefined && args[operation.risk.secret] === true;
}
