import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../clients/client-identity.js';
import { parsePolicy } from '../policy/policy-file.js';
import { mayReveal } from './reveal.js';

const as = (role: ClientIdentity['role']): ClientIdentity => ({ id: `${role}-1`, role });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as StagegraphError;
  }
  throw new Error('not refused');
};

describe('mayReveal', () => {
  it('lets agents and the tokenless loopback client reveal where the policy allows it', () => {
    expect(mayReveal(as('agent'), 'AGENT', true, 'cookie values')).toBe(true);
    expect(mayReveal(ANONYMOUS_LOOPBACK, 'AGENT', true, 'cookie values')).toBe(true);
    expect(mayReveal(as('observer'), 'AGENT', false, 'cookie values')).toBe(false);
    expect(mayReveal(as('observer'), 'NONE', null, 'cookie values')).toBe(false);
  });

  it('refuses approvers and observers with REVEAL_FORBIDDEN, never answering them redacted', () => {
    for (const role of ['approver', 'observer'] as const) {
      const error = refusal(() => mayReveal(as(role), 'AGENT', true, 'request bodies'));
      expect(error).toBeInstanceOf(StagegraphError);
      expect(error.code).toBe('REVEAL_FORBIDDEN');
      expect(error.message).toContain(`${role} token`);
      expect(error.hint).toMatch(/without `reveal`/);
    }
  });

  it('refuses everyone, agents included, under `reveal: NONE`', () => {
    const error = refusal(() => mayReveal(as('agent'), 'NONE', true, 'storage values'));
    expect(error.code).toBe('REVEAL_FORBIDDEN');
    expect(error.message).toContain('reveal: NONE');
  });

  it('reads the switch from the policy file: AGENT by default, NONE when set, anything else invalid', () => {
    expect(parsePolicy(Buffer.from('{}'), 'p.json').reveal).toBe('AGENT');
    expect(parsePolicy(Buffer.from('reveal: NONE\n'), 'p.yaml').reveal).toBe('NONE');
    expect(() => parsePolicy(Buffer.from('reveal: OBSERVER\n'), 'p.yaml')).toThrow(
      /reveal: must be one of AGENT, NONE/,
    );
  });
});
