// The GraphQL side of bench/snapshot.ts: the operations it sends over graphql-ws and a timed client call.
import type { Client } from 'graphql-ws';
import { summarise } from './stats.js';

export const NODE_ALL_FIELDS =
  'ref role name value description states level interactive text bbox { x y width height } parent { ref } children { ref }';
const snapshotQuery = (args: string, selection: string) =>
  `query ($s: ID) { session(id: $s) { window { snapshot${args} { ${selection} } } } }`;
export const SNAPSHOT_LEAN = snapshotQuery('', 'nodes { ref role name }');
export const SNAPSHOT_ALL = snapshotQuery('', `nodes { ${NODE_ALL_FIELDS} }`);
export const SNAPSHOT_INTERACTIVE = snapshotQuery('(interactiveOnly: true)', 'nodes { ref role name }');
/** The same listing as compact text (`Snapshot.outline`): one line a node. */
export const SNAPSHOT_INTERACTIVE_OUTLINE = snapshotQuery('(interactiveOnly: true)', 'outline');
/** The same listing with one-letter aliases: what a client can save without any server change. */
export const SNAPSHOT_INTERACTIVE_ALIASED = snapshotQuery(
  '(interactiveOnly: true)',
  'nodes { r: ref o: role n: name }',
);
export const DIFF_SELECTION =
  'added { ref role name } removed { ref } changed { ref changedFields name value }';
export const SINCE_LAST = snapshotQuery('(since: "LAST")', `diff { ${DIFF_SELECTION} }`);
export const CLICK =
  'mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }) { elapsedMs } }';
export const CLICK_WITH_DIFF = `mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }) { target { ref } diff { ${DIFF_SELECTION} } } }`;
export const EXPECT_TEXT =
  'mutation ($s: ID, $ref: ID!, $equals: String!) { expect(session: $s, kind: TEXT, target: { ref: $ref }, equals: $equals) { elapsedMs actual } }';
export const READ_TEXT =
  'mutation ($s: ID, $ref: ID!, $regex: String!) { expect(session: $s, kind: TEXT, target: { ref: $ref }, regex: $regex) { actual } }';
export const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
export const WAIT_FOR_PAGE =
  'mutation ($s: ID) { expect(session: $s, kind: TITLE, equals: "Orders", timeoutMs: 30000) { actual } }';
export const STOP = 'mutation ($id: ID) { stop(id: $id) { status } }';

export interface Node {
  readonly ref: string;
  readonly role: string;
  readonly name: string;
}
export interface SnapshotData {
  session: { window: { snapshot: { nodes: Node[] } } };
}
export interface DiffData {
  added: unknown[];
  removed: unknown[];
  changed: unknown[];
}

export interface Reply<T> {
  readonly data: T;
  /** Characters of the response JSON, `{"data":...}`. */
  readonly chars: number;
  /** From sending the operation to receiving its result, as the client sees it. */
  readonly ms: number;
  /** Date.now() when the result arrived: comparable with the page's Date.now() (same machine clock). */
  readonly receivedAt: number;
}

/** One operation over graphql-ws; rejects on any GraphQL error. */
export function gql<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Reply<T>> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let result: { readonly data?: T | null; readonly errors?: readonly unknown[] } | undefined;
    let ms = 0;
    let receivedAt = 0;
    client.subscribe<T>(
      { query, variables },
      {
        next: (value) => {
          ms = performance.now() - started;
          receivedAt = Date.now();
          result = value;
        },
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => {
          if (!result?.data || result.errors?.length) {
            reject(new Error(`${query.slice(0, 80)}…: ${JSON.stringify(result?.errors ?? 'no result')}`));
            return;
          }
          resolve({ data: result.data, chars: JSON.stringify(result).length, ms, receivedAt });
        },
      },
    );
  });
}

/** The data of one operation over graphql-ws; rejects on any GraphQL error. */
export async function gqlData<T>(
  client: Client,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  return (await gql<T>(client, query, variables)).data;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const median = (samples: readonly number[]) => summarise(samples).median;
