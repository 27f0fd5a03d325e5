import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { endingInErrors } from './sse-relay.js';
import { RelayedErrors } from './subscription-relay.js';

/** A relay's results: `values`, then `end` thrown (or done); `returned` once ended from outside. */
function owner(values: unknown[], end?: unknown) {
  const state = { returned: false, pending: undefined as (() => void) | undefined };
  const iterator: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      const value = values.shift();
      if (value !== undefined) return { value, done: false };
      if (end !== undefined) throw end;
      // A live relay with nothing to deliver yet: waits until it is ended.
      await new Promise<void>((resolve) => {
        state.pending = resolve;
      });
      return { value: undefined, done: true };
    },
    async return() {
      state.returned = true;
      state.pending?.();
      return { value: undefined, done: true };
    },
  };
  return { iterator, state };
}

async function all(results: AsyncIterableIterator<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const result of results) seen.push(result);
  return seen;
}

describe('a relay over SSE', () => {
  const frame = { data: { screencast: { seq: 1 } } };

  it("ends with the owner's errors as a last result, sent as the owner sent them", async () => {
    const errors = [{ message: 'gone', extensions: { code: 'SESSION_NOT_FOUND' } }];
    const { iterator } = owner([frame], new RelayedErrors(errors));
    expect(await all(endingInErrors(iterator))).toEqual([frame, { errors }]);
  });

  it('ends with SESSION_LOST, or any refusal of its own, in the registry form', async () => {
    const { iterator } = owner([frame], new StagegraphError('SESSION_LOST', 'Replica b is gone.'));
    const [, last] = (await all(endingInErrors(iterator))) as [unknown, { errors: unknown[] }];
    expect(last.errors).toEqual([
      expect.objectContaining({
        message: 'Replica b is gone.',
        extensions: expect.objectContaining({ code: 'SESSION_LOST' }),
      }),
    ]);
  });

  it('throws what is not a refusal (a bug), for yoga to end the stream', async () => {
    const { iterator } = owner([], new TypeError('broken'));
    await expect(all(endingInErrors(iterator))).rejects.toThrow('broken');
  });

  it('ends the relay when the client goes, even while it waits for the next result', async () => {
    const { iterator, state } = owner([]);
    const results = endingInErrors(iterator);
    const waiting = results.next();
    await results.return?.();
    expect(state.returned).toBe(true);
    expect(await waiting).toEqual({ value: undefined, done: true });
  });
});
