import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors/registry.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { TRANSPORT_ERROR_CODES, TransportError, type TransportErrorKind } from './transport-error.js';

const EXPECTED: Record<TransportErrorKind, string> = {
  unreachable: 'ATTACH_FAILED',
  protocol: 'PROTOCOL_ERROR',
  closed: 'SESSION_NOT_RUNNING',
  crashed: 'RENDERER_CRASHED',
  timeout: 'CDP_TIMEOUT',
};

describe('TransportError', () => {
  it.each(Object.entries(EXPECTED))('of kind %s reaches a client as %s, with its hint', (kind, code) => {
    const error = new TransportError(kind as TransportErrorKind, 'it failed.');
    expect(error).toBeInstanceOf(StagegraphError);
    expect(error).toMatchObject({ kind, code, hint: ERROR_CODES[code as keyof typeof ERROR_CODES].hint });
    expect(error.retryable).toBe(ERROR_CODES[code as keyof typeof ERROR_CODES].retryable);
  });

  it('maps every kind, and no two kinds to the same code', () => {
    expect(TRANSPORT_ERROR_CODES).toEqual(EXPECTED);
    expect(new Set(Object.values(TRANSPORT_ERROR_CODES)).size).toBe(Object.keys(EXPECTED).length);
  });

  it('names the protocol method in its message and details, as Playwright names its call', () => {
    const cause = new Error('Cannot find context with specified id');
    const error = new TransportError('protocol', cause.message, { method: 'Runtime.evaluate', cause });
    expect(error).toMatchObject({
      method: 'Runtime.evaluate',
      message: 'Runtime.evaluate: Cannot find context with specified id',
      details: { method: 'Runtime.evaluate' },
      cause,
    });
  });

  it('without a method says only what happened, and keeps the next actions it is given', () => {
    const error = new TransportError('unreachable', 'Nothing answers at 127.0.0.1:9.', {
      nextActions: ['query { discover(ports: [9]) { port } }'],
    });
    expect(error.method).toBeUndefined();
    expect(error.details).toBeUndefined();
    expect(error.message).toBe('Nothing answers at 127.0.0.1:9.');
    expect(error.nextActions).toEqual(['query { discover(ports: [9]) { port } }']);
  });
});
