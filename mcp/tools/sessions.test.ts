import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphqlLink, WireResult } from '../graphql-link.js';
import { describeSessions, SESSIONS, sessionsTool } from './sessions.js';

const SCHEMA = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const replica = (id: string, status = 'UP', self = false) => ({
  id,
  url: `http://127.0.0.1:470${id === 'a' ? 1 : 2}/graphql`,
  status,
  sessions: 1,
  lastSeen: '2026-12-07T18:00:00.000Z',
  self,
});
const session = (id: string, owner: string | null, status = 'RUNNING') => ({
  id,
  status,
  transport: 'playwright-electron',
  replica: owner === null ? null : { id: owner },
});

/** A link that answers every document with `answer`, as the gateway would. */
function answering(answer: WireResult): GraphqlLink {
  return {
    execute: async () => answer,
    subscribe: () => () => {},
    close: async () => {},
  };
}

describe('the sessions tool', () => {
  it('sends a document valid against the schema', () => {
    expect(validate(SCHEMA, parse(SESSIONS))).toEqual([]);
  });

  it('lists the sessions plainly without a cluster', () => {
    expect(describeSessions([], [session('s1', null), session('s2', null, 'EXITED')])).toBe(
      'sessions:\n  s1 RUNNING playwright-electron\n  s2 EXITED playwright-electron',
    );
    expect(describeSessions([], [])).toBe('No sessions: call open.');
  });

  it('groups a cluster by replica, with each replica’s health, and says which one answered', () => {
    const text = describeSessions(
      [replica('a', 'UP', true), replica('b', 'DOWN')],
      [session('b-s1', 'b', 'LOST'), session('a-s1', 'a'), session('c-s1', 'c')],
    );
    expect(text).toBe(
      [
        'replica a (this one) UP http://127.0.0.1:4701/graphql last seen 2026-12-07T18:00:00.000Z',
        '  a-s1 RUNNING playwright-electron',
        'replica b DOWN http://127.0.0.1:4702/graphql last seen 2026-12-07T18:00:00.000Z',
        '  b-s1 LOST playwright-electron',
        'replica not listed any more:',
        '  c-s1 RUNNING playwright-electron',
      ].join('\n'),
    );
  });

  it("answers the gateway's error with its code", async () => {
    const result = await sessionsTool.run(
      {},
      {
        link: answering({
          data: null,
          errors: [{ message: 'Redis does not answer.', extensions: { code: 'CLUSTER_UNAVAILABLE' } }],
        }),
        progress: async () => {},
      },
    );
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^CLUSTER_UNAVAILABLE: Redis does not answer\./) },
    ]);
  });
});
