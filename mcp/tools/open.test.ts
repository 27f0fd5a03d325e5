import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphqlLink, WireResult } from '../graphql-link.js';
import { openTool } from './open.js';

const SCHEMA = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

/** A link that keeps what it was sent and answers `answer`. */
function recording(answer: WireResult) {
  const sent: { query: string; variables: Record<string, unknown> | undefined }[] = [];
  const link: GraphqlLink = {
    execute: async (query, variables) => {
      sent.push({ query, variables });
      return answer;
    },
    subscribe: () => () => {},
    close: async () => {},
  };
  return { link, sent };
}

const OPENED = {
  id: 'b-s2',
  transport: 'playwright-electron',
  app: { name: 'Notes', standIn: false },
  windows: [{ id: 'w1', title: 'Notes', url: 'file:///notes.html' }],
  replica: { id: 'b' },
  activeWindow: null,
};

describe('the open tool in a cluster', () => {
  it('sends replica beside the input, in documents valid against the schema, and says where the session runs', async () => {
    const { link, sent } = recording({ data: { launch: OPENED } });
    const result = await openTool.run(
      { main: '/opt/notes', replica: 'b' },
      { link, progress: async () => {} },
    );
    expect(sent[0]?.variables).toEqual({ input: { main: '/opt/notes' }, replica: 'b' });
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^session b-s2 .* on replica b\n/),
    });
    for (const args of [{ port: 9222 }, { command: 'notes' }])
      await openTool.run(args, { link, progress: async () => {} });
    for (const { query } of sent) expect(validate(SCHEMA, parse(query))).toEqual([]);
  });

  it('without replica, lets the gateway choose (the receiving one) and names none', async () => {
    const { link, sent } = recording({ data: { attach: { ...OPENED, id: 's1', replica: null } } });
    const result = await openTool.run({ port: 9222 }, { link, progress: async () => {} });
    expect(sent[0]?.variables).toEqual({ input: { port: 9222 }, replica: undefined });
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^session s1 \(playwright-electron\) app "Notes"\n/),
    });
  });
});
