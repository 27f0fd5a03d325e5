import { Redactor } from '../domain/governance/redaction/redaction.js';
import { redactUrl } from '../domain/governance/redaction/redaction-network.js';
import { mayReveal, readsInClear } from '../domain/governance/redaction/reveal.js';
import { clientOf, type GatewayContext } from './context.js';

/** The policy's `reveal` (AGENT where a gateway runs without governance, as a benchmark's reference does). */
const revealModeOf = (context: GatewayContext) => context.governance?.policy.reveal ?? 'AGENT';

/** Whether this request's client is shown values in clear without asking. */
export const readsClear = (context: GatewayContext) => readsInClear(clientOf(context), revealModeOf(context));

/** `reveal: true` as this request's client may have it: true to show values in clear, or REVEAL_FORBIDDEN. */
export function revealFor(context: GatewayContext, asked: boolean | null | undefined, what: string): boolean {
  return mayReveal(clientOf(context), revealModeOf(context), asked, what);
}

/** A gateway built without governance (a benchmark's reference) still redacts, with the default patterns. */
export const UNGOVERNED_REDACTOR = new Redactor();

/** The redaction of this gateway's policy: what every reader sees unless an agent reveals. */
export function redactorOf(context: GatewayContext): Redactor {
  return context.governance?.redactor ?? UNGOVERNED_REDACTOR;
}

/** `text` as this request's client is shown it: in clear for an agent, else scrubbed by the policy's patterns. */
export function shownText(context: GatewayContext, text: string): string {
  return readsClear(context) ? text : redactorOf(context).redactWhole(text);
}

/** A captured URL as this request's client is shown it: in clear for an agent, else with its secrets redacted. */
export function shownUrl(context: GatewayContext, url: string): string {
  return readsClear(context) ? url : redactUrl(url, redactorOf(context));
}
