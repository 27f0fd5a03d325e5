import { RISK_TIERS, type RiskAssessment } from './policy/risk.js';
import type { GovernedRequest } from './request/governed-request.js';

/**
 * A target found by OCR is weighed one tier higher than the same name found in a tree: the words were read
 * from pixels, nothing says what they belong to, and a misread or a look-alike lands the pointer elsewhere.
 * So an ordinary click on painted words is HIGH (the built-in policy asks), a destructive one CRITICAL
 * (denied unless a rule allows). The reason says so, and `explainPolicy` shows it.
 */
export function raisedForOcr(assessment: RiskAssessment, request: GovernedRequest): RiskAssessment {
  if (request.target?.confidence !== 'OCR') return assessment;
  const at = RISK_TIERS.indexOf(assessment.tier);
  const tier = RISK_TIERS[Math.min(at + 1, RISK_TIERS.length - 1)]!;
  if (tier === assessment.tier) return assessment;
  return {
    tier,
    reasons: [
      ...assessment.reasons,
      `the target was found by OCR (read from the screen, lowest confidence): raised from ${assessment.tier} to ${tier}`,
    ],
  };
}
