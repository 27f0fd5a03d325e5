import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { ClientShares } from './client-shares.js';

describe('ClientShares', () => {
  it('refuses a client at its share with CLIENT_LIMIT while another still takes', () => {
    const shares = new ClientShares('subscriptions', 2, 8);
    shares.take(['a']);
    shares.take(['a']);
    let refusal: unknown;
    try {
      shares.take(['a']);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(StagegraphError);
    expect(refusal).toMatchObject({
      code: 'CLIENT_LIMIT',
      retryable: true,
      details: { resource: 'subscriptions', share: 2, serverLimit: 8 },
    });
    expect((refusal as StagegraphError).hint).toMatch(/other clients keep their own share/);
    expect(() => shares.take(['b'])).not.toThrow();
    expect(shares.held('a')).toBe(2);
  });

  it('charges every key and refuses when any one is full, charging none', () => {
    const shares = new ClientShares('subscriptions', 2, 8);
    const socket = {};
    shares.take([socket, 'agent-1']);
    shares.take(['agent-1']);
    expect(() => shares.take([{}, 'agent-1'])).toThrow(/holds 2 subscriptions/);
    expect(shares.held(socket)).toBe(1);
    expect(() => shares.take([socket])).not.toThrow();
  });

  it('a release frees the share once, however often it is called', () => {
    const shares = new ClientShares('sessions', 1, 4);
    const release = shares.take(['a']);
    expect(() => shares.take(['a'])).toThrow();
    release();
    release();
    expect(shares.held('a')).toBe(0);
    const again = shares.take(['a']);
    const other = shares.take(['b']);
    release();
    expect(shares.held('a')).toBe(1);
    again();
    other();
    expect(shares.held('a')).toBe(0);
    expect(shares.held('b')).toBe(0);
  });
});
