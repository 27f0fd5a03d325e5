import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { raisedForOcr } from '../ocr-risk.js';
import type { RedactionPattern } from '../redaction/redaction.js';
import type { GovernedRequest } from '../request/governed-request.js';
import {
  BUILT_IN_DEFAULTS,
  type Decision,
  type NonInteractiveMode,
  type PolicySpec,
  PolicySpecError,
  type RedactSpec,
  type RevealMode,
} from './policy-spec.js';
import { DEFAULT_DESTRUCTIVE_WORDS, RiskScorer, type RiskTier } from './risk.js';
import { RuleMatcher } from './rule-matcher.js';
import { REGEX_LITERAL } from './text-pattern.js';

/** Names the rule behind a decision; `index` is null for a per-tier default. */
export interface RuleRef {
  readonly id: string;
  readonly index: number | null;
  readonly description: string;
}

export interface PolicyVerdict {
  readonly decision: Decision;
  readonly rule: RuleRef;
  readonly risk: RiskTier;
  readonly reasons: readonly string[];
  /** What an ASK becomes when no approver is watching. */
  readonly nonInteractive: NonInteractiveMode;
}

/** `explain` adds why each earlier rule did not match, which `evaluate` skips to stay cheap. */
export interface PolicyExplanation extends PolicyVerdict {
  readonly skipped: readonly string[];
}

export interface RuleView extends RuleRef {
  readonly index: number;
  readonly decision: Decision;
  /** Decisions this rule made through `evaluate` since the policy was loaded. */
  readonly hits: number;
}

export interface PolicyOrigin {
  /** The file it came from, or null for the built-in policy. */
  readonly path: string | null;
  readonly loadedAt: Date;
  /** SHA-256 of the file's bytes, so the audit trail can say which policy decided. */
  readonly sha256: string | null;
}

/**
 * An immutable, compiled policy: rules in order (first match wins), then a default decision per risk tier.
 * A reload builds a new Policy; one in use is never changed under a running decision.
 */
export class Policy {
  readonly origin: PolicyOrigin;
  readonly defaults: Readonly<Record<RiskTier, Decision>>;
  readonly nonInteractive: NonInteractiveMode;
  /** Who may read values in clear with `reveal: true`. */
  readonly reveal: RevealMode;
  readonly destructiveWords: readonly string[];
  /** The file's own redaction patterns (`redact:`), compiled global; masked beside the built-in ones. */
  readonly redactionPatterns: readonly RedactionPattern[];
  #rules: RuleMatcher[];
  #hits: number[];
  #scorer: RiskScorer;

  /** Throws PolicySpecError on a pattern that does not compile; the file loader validated the rest. */
  constructor(
    spec: PolicySpec = {},
    origin: PolicyOrigin = { path: null, loadedAt: new Date(), sha256: null },
  ) {
    this.origin = origin;
    this.defaults = { ...BUILT_IN_DEFAULTS, ...spec.defaults };
    this.nonInteractive = spec.nonInteractive ?? 'FAIL';
    this.reveal = spec.reveal ?? 'AGENT';
    this.destructiveWords = [
      ...(spec.destructiveWords ?? DEFAULT_DESTRUCTIVE_WORDS),
      ...(spec.extraDestructiveWords ?? []),
    ];
    this.#scorer = new RiskScorer({ destructiveWords: this.destructiveWords });
    this.#rules = (spec.rules ?? []).map((rule, index) => new RuleMatcher(rule, index));
    this.redactionPatterns = (spec.redact ?? []).map(compileRedaction);
    this.#hits = this.#rules.map(() => 0);
  }

  get rules(): readonly RuleView[] {
    return this.#rules.map((rule) => ({
      id: rule.id,
      index: rule.index,
      description: rule.description,
      decision: rule.spec.decision,
      hits: this.#hits[rule.index] ?? 0,
    }));
  }

  /** Decides, and counts the deciding rule's hit. */
  evaluate(request: GovernedRequest): PolicyVerdict {
    const { verdict, matched } = this.#decide(request, undefined);
    if (matched !== undefined) this.#hits[matched] = (this.#hits[matched] ?? 0) + 1;
    return verdict;
  }

  /** Decides exactly as `evaluate` would, changing nothing, and says why earlier rules were passed over. */
  explain(request: GovernedRequest): PolicyExplanation {
    const skipped: string[] = [];
    return { ...this.#decide(request, skipped).verdict, skipped };
  }

  #decide(
    request: GovernedRequest,
    skipped: string[] | undefined,
  ): { verdict: PolicyVerdict; matched?: number } {
    const risk = raisedForOcr(this.#scorer.score(request), request);
    for (const rule of this.#rules) {
      const why = rule.mismatch(request, risk.tier);
      if (why !== undefined) {
        skipped?.push(`rule #${rule.index} ${rule.id}: ${why}`);
        continue;
      }
      const verdict: PolicyVerdict = {
        decision: rule.spec.decision,
        rule: { id: rule.id, index: rule.index, description: rule.description },
        risk: risk.tier,
        reasons: [...risk.reasons, `rule #${rule.index} ${rule.id} matched: ${rule.description}`],
        nonInteractive: rule.spec.nonInteractive ?? this.nonInteractive,
      };
      return { verdict, matched: rule.index };
    }
    const decision = this.defaults[risk.tier];
    return {
      verdict: {
        decision,
        rule: {
          id: `default:${risk.tier}`,
          index: null,
          description: `no rule matched; the default for ${risk.tier} risk is ${decision}`,
        },
        risk: risk.tier,
        reasons: [...risk.reasons, `no rule matched; ${risk.tier} risk defaults to ${decision}`],
        nonInteractive: this.nonInteractive,
      },
    };
  }
}

/** The POLICY_DENIED a DENY (or a denied approval) becomes; it names the rule so the agent can ask why. */
export function policyDeniedError(
  operation: string,
  verdict: PolicyVerdict,
  approval?: { readonly decidedBy: string; readonly reason: string | null },
  hint?: string,
): StagegraphError {
  const rule = `rule ${verdict.rule.id} (${verdict.rule.description})`;
  const message = approval
    ? `${operation} was denied by ${approval.decidedBy}${approval.reason ? `: ${approval.reason}` : ''}; it was asked under ${rule}.`
    : `${operation} is denied by ${rule}.`;
  return new StagegraphError('POLICY_DENIED', message, {
    ...(hint ? { hint } : {}),
    details: { rule: verdict.rule, risk: verdict.risk, reasons: verdict.reasons },
  });
}

/**
 * `/source/flags` as a global expression (`replace` must catch every occurrence). Like a rule's `/regex/`,
 * it is the policy author's own and runs as written on JavaScript's engine, over at most the redactor's
 * window of each value (MAX_REDACTED_STRING_LENGTH plus SCRUB_OVERLAP characters).
 */
function compileRedaction(spec: RedactSpec, index: number): RedactionPattern {
  const literal = REGEX_LITERAL.exec(spec.pattern);
  try {
    if (!literal) throw new SyntaxError('a regular expression literal, `/source/flags`');
    const flags = literal[2]!.replace(/[gy]/g, '');
    return { name: spec.name, pattern: new RegExp(literal[1]!, `${flags}g`) };
  } catch (error) {
    throw new PolicySpecError(`redact[${index}].pattern`, (error as Error).message);
  }
}
