import { describe, expect, it } from 'vitest';
import { ANONYMOUS_LOOPBACK, assertApprover, ClientDirectory, permissionsOf } from './client-identity.js';

const AGENT = 'agent-token-0123456789';
const APPROVER = 'approver-token-9876543210';

describe('ClientDirectory', () => {
  it('resolves agent and approver tokens, with or without Bearer, and never names a client by its token', () => {
    const directory = ClientDirectory.fromEnvironment({
      STAGEGRAPH_TOKEN: AGENT,
      STAGEGRAPH_APPROVER_TOKEN: APPROVER,
    });
    const agent = directory.resolve(`Bearer ${AGENT}`, { loopback: true });
    expect(agent.role).toBe('agent');
    expect(agent.id).toMatch(/^agent-[0-9a-f]{8}$/);
    expect(agent.id).not.toContain(AGENT);
    expect(directory.resolve(APPROVER, { loopback: false }).role).toBe('approver');
  });

  it('refuses wrong tokens, and missing ones where an agent token is configured', () => {
    const directory = new ClientDirectory([{ token: AGENT, role: 'agent', name: 'ci-agent' }]);
    expect(directory.resolve(AGENT, { loopback: false })).toEqual({ id: 'ci-agent', role: 'agent' });
    expect(() => directory.resolve('Bearer nope', { loopback: true })).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
    expect(() => directory.resolve(undefined, { loopback: true })).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
  });

  it('without agent tokens, a loopback client with no token is anonymous; elsewhere it is refused', () => {
    const directory = ClientDirectory.fromEnvironment({
      STAGEGRAPH_APPROVER_TOKEN: `${APPROVER}, second-approver-token`,
    });
    expect(directory.resolve(null, { loopback: true })).toBe(ANONYMOUS_LOOPBACK);
    expect(() => directory.resolve(null, { loopback: false })).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
    expect(directory.resolve('second-approver-token', { loopback: true }).role).toBe('approver');
  });

  it('refuses one token for both roles, and only approvers may approve', () => {
    expect(
      () =>
        new ClientDirectory([
          { token: AGENT, role: 'agent' },
          { token: AGENT, role: 'approver' },
        ]),
    ).toThrow(/both agent and approver/);
    expect(() => assertApprover({ id: 'a', role: 'agent' }, 'approve')).toThrow(
      expect.objectContaining({ code: 'APPROVAL_FORBIDDEN' }),
    );
    expect(() => assertApprover(ANONYMOUS_LOOPBACK, 'approve')).toThrow(/may not approve/);
    expect(() => assertApprover({ id: 'h', role: 'approver' }, 'approve')).not.toThrow();
  });

  it('resolves observer tokens, refuses one token for two roles, and states what each role may do', () => {
    const directory = ClientDirectory.fromEnvironment({
      STAGEGRAPH_TOKEN: AGENT,
      STAGEGRAPH_OBSERVER_TOKEN: 'observer-token-1, observer-token-2',
    });
    expect(directory.resolve('Bearer observer-token-2', { loopback: false }).role).toBe('observer');
    expect(
      () =>
        new ClientDirectory([
          { token: 'shared', role: 'approver' },
          { token: 'shared', role: 'observer' },
        ]),
    ).toThrow(/both approver and observer/);
    expect(permissionsOf('observer')).toEqual({ mayAct: false, mayApprove: false, mayWatchApprovals: true });
    expect(permissionsOf('agent')).toEqual({ mayAct: true, mayApprove: false, mayWatchApprovals: false });
    expect(permissionsOf('approver')).toEqual({ mayAct: false, mayApprove: true, mayWatchApprovals: true });
    expect(() => assertApprover({ id: 'o', role: 'observer' }, 'approve')).toThrow(/may not approve/);
  });
});
