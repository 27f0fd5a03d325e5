import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * A failed inject, said alike by each of its steps: opening the inspector, the main-process handshake,
 * the deadline's steps.
 */
export function injectFailed(pid: number, reason: string, cause?: unknown): StagegraphError {
  return new StagegraphError('INJECT_FAILED', `Cannot inject into pid ${pid}: ${reason}.`, {
    nextActions: ['query { sessions { id pid app { name } } }'],
    ...(cause === undefined ? {} : { cause }),
  });
}
