import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../gateway-client.js';
import { findPageStarts } from './page-starts.js';

/** A gateway whose trail holds records with these seqs, answering `audit` pages as the server does. */
function trail(seqs: readonly number[]): GatewayClient & { reads: number } {
  const client = {
    reads: 0,
    async query<T>(_document: string, variables?: Record<string, unknown>): Promise<T> {
      client.reads += 1;
      const after = Number(variables?.after ?? 0);
      const first = Number(variables?.first ?? 50);
      const rest = seqs.filter((seq) => seq > after);
      const page = rest.slice(0, first);
      return {
        audit: {
          edges: page.map((seq) => ({ cursor: String(seq) })),
          pageInfo: { endCursor: page.length ? String(page.at(-1)) : null, hasNextPage: rest.length > first },
        },
      } as T;
    },
    mutate: () => Promise.reject(new Error('not used')),
    subscribe: () => () => undefined,
    fetchArtifact: () => Promise.reject(new Error('not used')),
    close: () => undefined,
  };
  return client;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('findPageStarts', () => {
  it('starts a page after every 50th record, never an empty last page', async () => {
    expect(await findPageStarts(trail([]), {}, [null])).toEqual([null]);
    expect(await findPageStarts(trail(range(1, 50)), {}, [null])).toEqual([null]);
    expect(await findPageStarts(trail(range(1, 51)), {}, [null])).toEqual([null, '50']);
    expect(await findPageStarts(trail(range(1, 100)), {}, [null])).toEqual([null, '50']);
    expect(await findPageStarts(trail(range(1, 120)), {}, [null])).toEqual([null, '50', '100']);
  });

  it('counts matching records, whatever their seqs, across walk pages of 500', async () => {
    const evens = range(1, 1_300).filter((seq) => seq % 2 === 0);
    const client = trail(evens);
    const starts = await findPageStarts(client, {}, [null]);
    expect(starts).toHaveLength(13);
    expect(starts.slice(0, 3)).toEqual([null, '100', '200']);
    expect(starts.at(-1)).toBe('1200');
    expect(client.reads).toBe(2);
  });

  it('goes on from the starts it already knows', async () => {
    const client = trail(range(1, 175));
    expect(await findPageStarts(client, {}, [null, '50', '100'])).toEqual([null, '50', '100', '150']);
    expect(client.reads).toBe(1);
  });
});
