import { StagegraphError } from '../../errors/stagegraph-error.js';

/** The StagegraphError `run` throws, for tests that inspect its code, details and next actions. */
export function caught(run: () => unknown): StagegraphError {
  try {
    run();
  } catch (error) {
    if (error instanceof StagegraphError) return error;
    throw error;
  }
  throw new Error('expected a StagegraphError');
}
