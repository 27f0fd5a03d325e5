import { describe, expect, it } from 'vitest';
import type { GovernedRequest } from '../request/governed-request.js';
import { RiskScorer } from './risk.js';

const button = (name: string) => ({ kind: 'element' as const, role: 'button', name });
const request = (overrides: Partial<GovernedRequest>): GovernedRequest => ({
  operation: 'click',
  kind: 'mutation',
  args: {},
  session: null,
  target: button('Open'),
  ...overrides,
});

describe('RiskScorer', () => {
  const scorer = new RiskScorer();

  it('rates eval, raw mouse and coordinate clicks CRITICAL', () => {
    expect(scorer.score(request({ operation: 'eval', target: null })).tier).toBe('CRITICAL');
    expect(scorer.score(request({ operation: 'mouseClick', target: null })).tier).toBe('CRITICAL');
    const coordinate = scorer.score(request({ target: null, args: { position: { x: 3, y: 4 } } }));
    expect(coordinate).toMatchObject({ tier: 'CRITICAL' });
    expect(coordinate.reasons[0]).toMatch(/coordinate click/);
  });

  it('a position is a coordinate click even with a target: the offset may leave its box', () => {
    const offset = scorer.score(request({ args: { position: { x: 3, y: 4 } } }));
    expect(offset).toMatchObject({ tier: 'CRITICAL' });
    expect(offset.reasons[0]).toMatch(/coordinate click.*button "Open"/);
  });

  it('rates actions on destructively named targets HIGH, matching at word starts', () => {
    expect(scorer.score(request({ target: button('Delete account') })).tier).toBe('HIGH');
    expect(scorer.score(request({ target: button('Pay now') })).tier).toBe('HIGH');
    expect(
      scorer.score(
        request({
          operation: 'fill',
          target: { kind: 'element' as const, role: 'textbox', name: 'Send to' },
        }),
      ).tier,
    ).toBe('HIGH');
    expect(scorer.score(request({ target: button('Undeleted items') })).tier).toBe('MEDIUM');
    expect(scorer.score(request({ operation: 'hover', target: button('Delete') })).tier).toBe('MEDIUM');
  });

  it('rates reads LOW and other actions MEDIUM; the word list is configurable', () => {
    expect(scorer.score(request({ kind: 'query', operation: 'snapshot', target: null })).tier).toBe('LOW');
    expect(scorer.score(request({})).tier).toBe('MEDIUM');
    const custom = new RiskScorer({ destructiveWords: ['launch'] });
    expect(custom.score(request({ target: button('Launch missiles') })).tier).toBe('HIGH');
    expect(custom.score(request({ target: button('Delete') })).tier).toBe('MEDIUM');
  });
});
