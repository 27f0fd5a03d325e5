import { describe, expect, it } from 'vitest';
import type { DialogSeen } from '../../transports/contract/renderer-control.js';
import { DialogPolicy } from './dialog-policy.js';

const seen = (type: DialogSeen['type']): DialogSeen => ({
  type,
  message: 'm',
  defaultValue: '',
  windowId: 'w1',
});

describe('DialogPolicy', () => {
  it('dismisses everything until a policy is set', () => {
    const policy = new DialogPolicy();
    for (const type of ['alert', 'confirm', 'prompt', 'beforeunload'] as const)
      expect(policy.decide(seen(type))).toEqual({ accept: false });
  });

  it('applies per-type rules over the default, with prompt text', () => {
    const policy = new DialogPolicy();
    policy.set({ default: 'ACCEPT', confirm: 'DISMISS', promptText: 'Ada' });
    expect(policy.decide(seen('confirm'))).toEqual({ accept: false });
    expect(policy.decide(seen('prompt'))).toEqual({ accept: true, promptText: 'Ada' });
    expect(policy.decide(seen('alert'))).toEqual({ accept: true });
  });

  it('reverts to dismissing after one dialog when one-shot', () => {
    const policy = new DialogPolicy();
    policy.set({ default: 'ACCEPT', oneShot: true });
    expect(policy.decide(seen('confirm'))).toEqual({ accept: true });
    expect(policy.decide(seen('confirm'))).toEqual({ accept: false });
    expect(policy.current).toEqual({ default: 'DISMISS' });
  });
});
