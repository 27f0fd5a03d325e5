import { describe, expect, it } from 'vitest';
import { Policy } from './policy/policy.js';
import type { GovernedRequest, TargetInfo } from './request/governed-request.js';

const click = (target: Partial<TargetInfo>): GovernedRequest => ({
  operation: 'click',
  kind: 'mutation',
  args: {},
  session: { id: 's1' },
  target: { kind: 'element', role: 'button', name: 'Export', ...target },
});

describe('a target found by OCR', () => {
  it('is weighed one tier above the same name found in the tree, and the reasons say so', () => {
    const policy = new Policy();
    expect(policy.evaluate(click({ confidence: 'ROLE_NAME' }))).toMatchObject({
      risk: 'MEDIUM',
      decision: 'ALLOW',
    });
    const read = policy.explain(click({ role: 'ocr text', confidence: 'OCR' }));
    expect(read).toMatchObject({ risk: 'HIGH', decision: 'ASK' });
    expect(read.reasons.join('\n')).toContain('found by OCR');
    expect(policy.evaluate(click({ name: 'Delete', confidence: 'OCR' }))).toMatchObject({
      risk: 'CRITICAL',
      decision: 'DENY',
    });
  });

  it('can be matched by a rule on its confidence', () => {
    const policy = new Policy({
      rules: [{ id: 'no-ocr', target: { confidence: ['OCR'] }, decision: 'DENY' }],
    });
    expect(policy.evaluate(click({ confidence: 'OCR' })).rule.id).toBe('no-ocr');
    expect(policy.evaluate(click({ confidence: 'SPATIAL' })).rule.id).toBe('default:MEDIUM');
  });
});
