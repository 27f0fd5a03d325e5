import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { GovernedRequest } from '../request/governed-request.js';
import { Policy, policyDeniedError } from './policy.js';

const request = (overrides: Partial<GovernedRequest> = {}): GovernedRequest => ({
  operation: 'click',
  kind: 'mutation',
  args: {},
  session: {
    id: 's1',
    executablePath: '/opt/Billing/billing',
    main: '/srv/app/main.js',
    windowTitle: 'Checkout',
  },
  target: { kind: 'element' as const, role: 'button', name: 'Open', selector: '#open' },
  ...overrides,
});

describe('Policy defaults', () => {
  const policy = new Policy();

  it('allows reads and actions, asks for high risk, denies eval and coordinate clicks', () => {
    expect(policy.evaluate(request({ kind: 'query', operation: 'windows', target: null })).decision).toBe(
      'ALLOW',
    );
    expect(policy.evaluate(request()).decision).toBe('ALLOW');
    const ask = policy.evaluate(
      request({ target: { kind: 'element' as const, role: 'button', name: 'Delete all' } }),
    );
    expect(ask).toMatchObject({ decision: 'ASK', risk: 'HIGH', rule: { id: 'default:HIGH', index: null } });
    expect(ask.nonInteractive).toBe('FAIL');
    expect(policy.evaluate(request({ operation: 'eval', target: null })).decision).toBe('DENY');
    expect(policy.evaluate(request({ target: null, args: { position: { x: 1, y: 1 } } })).decision).toBe(
      'DENY',
    );
  });
});

describe('Policy rules', () => {
  const policy = new Policy({
    defaults: { MEDIUM: 'ASK' },
    nonInteractive: 'DENY',
    rules: [
      {
        id: 'allow-eval-in-tests',
        operation: ['eval'],
        session: { main: '**/fixtures/**' },
        decision: 'ALLOW',
      },
      {
        id: 'no-pay',
        description: 'Never pay in the billing app',
        session: { executable: '**/Billing/*' },
        target: { role: ['button', 'link'], name: '/pay|purchase/i' },
        decision: 'DENY',
      },
      { operation: ['fill'], args: { value: '*@example.com' }, decision: 'ALLOW' },
      {
        operation: ['click'],
        args: { position: true },
        risk: ['CRITICAL'],
        decision: 'ASK',
        nonInteractive: 'ALLOW',
      },
      { target: { selector: '#safe-*' }, decision: 'ALLOW' },
    ],
  });

  it('first match wins and the verdict names the rule', () => {
    const verdict = policy.evaluate(
      request({
        target: { kind: 'element' as const, role: 'button', name: 'Pay now', selector: '#safe-pay' },
      }),
    );
    expect(verdict).toMatchObject({
      decision: 'DENY',
      rule: { id: 'no-pay', index: 1, description: 'Never pay in the billing app' },
      risk: 'HIGH',
    });
    expect(verdict.reasons.join('\n')).toMatch(/contains "Pay"[\s\S]*rule #1 no-pay matched/);
  });

  it('matches session paths, argument patterns and presence, and risk tiers', () => {
    const evalRequest = request({ operation: 'eval', target: null });
    expect(policy.evaluate(evalRequest).decision).toBe('DENY');
    expect(
      policy.evaluate({ ...evalRequest, session: { id: 's2', main: '/repo/fixtures/app/main.js' } }).rule.id,
    ).toBe('allow-eval-in-tests');
    expect(policy.evaluate(request({ operation: 'fill', args: { value: 'ann@example.com' } })).rule.id).toBe(
      'rule-2',
    );
    expect(policy.evaluate(request({ operation: 'fill', args: { value: 'ann@evil.com' } })).decision).toBe(
      'ASK',
    );
    const coordinate = policy.evaluate(request({ target: null, args: { position: { x: 1, y: 2 } } }));
    expect(coordinate).toMatchObject({ decision: 'ASK', rule: { index: 3 }, nonInteractive: 'ALLOW' });
  });

  it('falls back to the per-tier defaults and the policy-wide non-interactive mode', () => {
    expect(policy.evaluate(request())).toMatchObject({
      decision: 'ASK',
      rule: { id: 'default:MEDIUM' },
      nonInteractive: 'DENY',
    });
    expect(
      policy.evaluate(
        request({ target: { kind: 'element' as const, role: 'button', name: 'x', selector: '#safe-x' } }),
      ).rule.id,
    ).toBe('rule-4');
  });

  it('explain decides the same, says why earlier rules were skipped, and counts no hits', () => {
    const fresh = new Policy({ rules: [{ id: 'fills', operation: ['fill'], decision: 'DENY' }] });
    const explanation = fresh.explain(request());
    expect(explanation.decision).toBe(fresh.evaluate(request()).decision);
    expect(explanation.skipped).toEqual(['rule #0 fills: operation click is not fill']);
    fresh.explain(request({ operation: 'fill' }));
    expect(fresh.rules[0]!.hits).toBe(0);
    fresh.evaluate(request({ operation: 'fill' }));
    expect(fresh.rules[0]).toMatchObject({ id: 'fills', decision: 'DENY', hits: 1 });
  });

  it('a DENY becomes POLICY_DENIED naming the rule, or the approver who denied', () => {
    const verdict = policy.evaluate(
      request({ target: { kind: 'element' as const, role: 'button', name: 'Purchase' } }),
    );
    const error = policyDeniedError('click', verdict);
    expect(error).toBeInstanceOf(StagegraphError);
    expect(error.code).toBe('POLICY_DENIED');
    expect(error.message).toMatch(/rule no-pay \(Never pay in the billing app\)/);
    expect(
      policyDeniedError('click', verdict, { decidedBy: 'approver-1', reason: 'not today' }).message,
    ).toMatch(/denied by approver-1: not today/);
  });
});

describe('targets other than page elements', () => {
  const deleteAll = {
    kind: 'menuItem' as const,
    role: 'menuitem',
    name: 'Delete All Notes',
    path: ['File', 'Delete All Notes'],
    activates: true,
  };

  it('a destructive menu item is HIGH whatever the operation is called; a program is not scored by its name', () => {
    const policy = new Policy();
    const menu = policy.evaluate(request({ operation: 'invokeMenuItem', target: deleteAll }));
    expect(menu).toMatchObject({ decision: 'ASK', risk: 'HIGH' });
    expect(menu.reasons[0]).toBe(
      'invokeMenuItem on menuitem "Delete All Notes" (File > Delete All Notes), whose name contains "Delete"',
    );
    const program = { kind: 'program' as const, role: 'program', name: '/usr/bin/shred', activates: false };
    expect(policy.evaluate(request({ operation: 'launchCommand', target: program })).risk).toBe('MEDIUM');
  });

  it('rules match the kind and the path, and say why they did not', () => {
    const policy = new Policy({
      rules: [
        { id: 'help', target: { kind: ['menuItem'], path: 'Help > *' }, decision: 'DENY' },
        { id: 'file', target: { kind: ['contextMenuItem'] }, decision: 'DENY' },
      ],
    });
    const asked = policy.explain(request({ operation: 'invokeMenuItem', target: deleteAll }));
    expect(asked.rule.id).toBe('default:HIGH');
    expect(asked.skipped).toEqual([
      'rule #0 help: target path "File > Delete All Notes" is not Help > *',
      'rule #1 file: target kind menuItem is not contextMenuItem',
    ]);
    const about = { ...deleteAll, name: 'About', path: ['Help', 'About'] };
    expect(policy.evaluate(request({ operation: 'invokeMenuItem', target: about })).rule.id).toBe('help');
  });
});

describe('Policy rules on target confidence', () => {
  const policy = new Policy({
    rules: [
      { id: 'no-spatial', target: { confidence: ['SPATIAL'] }, decision: 'DENY' },
      { id: 'ask-below-role-name', target: { confidenceBelow: 'ROLE_NAME' }, decision: 'ASK' },
    ],
  });
  const at = (confidence: 'STABLE_ID' | 'ROLE_NAME' | 'TEXT' | 'SPATIAL' | null) =>
    request({ target: { kind: 'element' as const, role: 'button', name: 'Open', confidence } });

  it('matches a list of confidences, or everything weaker than one', () => {
    expect(policy.evaluate(at('SPATIAL')).rule.id).toBe('no-spatial');
    expect(policy.evaluate(at('TEXT')).rule.id).toBe('ask-below-role-name');
    expect(policy.evaluate(at('ROLE_NAME')).decision).toBe('ALLOW');
    expect(policy.evaluate(at('STABLE_ID')).decision).toBe('ALLOW');
  });

  it('never matches a target whose confidence is unknown', () => {
    expect(policy.evaluate(at(null)).decision).toBe('ALLOW');
  });
});
