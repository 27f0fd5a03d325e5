import { describe, expect, it } from 'vitest';
import { toGatewayError } from './gateway-client.js';
import { keepLast } from './gateway-hooks.js';
import { routeFromHash, sessionHref } from './route.js';

describe('toGatewayError', () => {
  it('reads the code and hint of the first GraphQL error', () => {
    expect(
      toGatewayError([
        { message: 'No session s9.', extensions: { code: 'SESSION_NOT_FOUND', hint: 'List sessions.' } },
        { message: 'second' },
      ]),
    ).toEqual({ message: 'No session s9.', code: 'SESSION_NOT_FOUND', hint: 'List sessions.' });
  });

  it('reads the registered code from the reason the gateway closed a refused socket with', () => {
    expect(toGatewayError({ code: 4403, reason: 'UNAUTHENTICATED: The token is not valid.' })).toEqual({
      message: 'The token is not valid.',
      code: 'UNAUTHENTICATED',
    });
    expect(toGatewayError({ code: 1006, reason: '' })).toEqual({ message: 'The connection closed (1006).' });
  });

  it('keeps the message of anything else', () => {
    expect(toGatewayError(new Error('socket hang up'))).toEqual({ message: 'socket hang up' });
    expect(toGatewayError('odd')).toEqual({ message: 'odd' });
  });
});

describe('routes', () => {
  it('keeps only section names and session ids in the fragment', () => {
    expect(routeFromHash('')).toEqual({ name: 'sessions' });
    expect(routeFromHash('#/approvals')).toEqual({ name: 'approvals' });
    expect(routeFromHash('#/audit')).toEqual({ name: 'audit' });
    expect(routeFromHash(sessionHref('s 1/x'))).toEqual({ name: 'session', sessionId: 's 1/x' });
    expect(routeFromHash('#/nowhere')).toEqual({ name: 'sessions' });
  });
});

describe('keepLast', () => {
  it('keeps the newest entries up to the limit', () => {
    expect(keepLast([1, 2, 3], [4, 5], 4)).toEqual([2, 3, 4, 5]);
    expect(keepLast([1], [2], 4)).toEqual([1, 2]);
  });
});
