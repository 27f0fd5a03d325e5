// The console subscription executes each entry once for all subscribers with the same document and
// variables (server/shared-subscriptions.ts); these check that sharing changes nothing a subscriber sees.
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptureApp, startCaptureApp } from './helpers/capture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';

const LINES = 300;
const FEED = parse(
  'subscription ($session: ID, $text: String, $types: [String!]) { console(session: $session, textContains: $text, types: $types) { droppedBefore entry { seq type text } } }',
);

let app: CaptureApp;
const clients: ReturnType<typeof wsClient>[] = [];
beforeAll(async () => {
  app = await startCaptureApp(`?autostart&lines=${LINES}`);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app?.stop();
});

/** Each subscriber is a client of its own, on its own connection, as separate observers would be. */
function subscriber(document = FEED, variables: Record<string, unknown> = {}): Subscription<Loose> {
  const client = wsClient(app.gateway.wsUrl);
  clients.push(client);
  return subscribe(client, document, { session: app.sessionId, ...variables });
}

const lineTexts = (feed: Subscription<Loose>) =>
  feed.received.map((value) => value.console.entry.text.split(' ').slice(0, 2).join(' '));

describe('console fan-out with shared execution', () => {
  it('gives subscribers with one document identical payloads, and others what their own filters and selection say', async () => {
    const before = app.gateway.gateway.hub.subscriberCount;
    const first = subscriber(FEED, { text: 'flood ' });
    const second = subscriber(FEED, { text: 'flood ' });
    const twos = subscriber(FEED, { text: 'flood 2' });
    const errorsOnly = subscriber(FEED, { types: ['error'] });
    const seqOnly = subscriber(
      parse(
        'subscription ($session: ID) { console(session: $session, textContains: "flood ") { entry { seq } } }',
      ),
    );
    await expect.poll(() => app.gateway.gateway.hub.subscriberCount).toBe(before + 5);
    app.startFlood();
    const last = (value: Loose) => value.console.entry.text?.startsWith(`flood ${LINES} `);
    await Promise.all([first.waitFor(last, 60_000), second.waitFor(last, 60_000)]);
    await twos.waitFor((value) => value.console.entry.text.startsWith('flood 299 '), 60_000);
    await expect.poll(() => seqOnly.received.length, { timeout: 60_000 }).toBe(LINES);
    await app.click('log-levels');
    await errorsOnly.waitFor((value) => value.console.entry.text === 'capture: error line');

    expect(first.received).toHaveLength(LINES);
    expect(second.received).toEqual(first.received);
    expect(lineTexts(first)).toEqual(Array.from({ length: LINES }, (_, i) => `flood ${i + 1}`));
    expect(first.received.every((value) => value.console.droppedBefore === 0)).toBe(true);
    // flood 2, flood 20–29 and flood 200–299.
    expect(twos.received).toHaveLength(111);
    expect(lineTexts(twos).every((text) => text.startsWith('flood 2'))).toBe(true);
    // The page's own errors (a missing favicon) may come too; flood lines never.
    const errorEntries = errorsOnly.received.map((value) => value.console.entry);
    expect(errorEntries.every((entry) => entry.type === 'error')).toBe(true);
    expect(errorEntries.map((entry) => entry.text)).toContain('capture: error line');
    const seqs = first.received.map((value) => value.console.entry.seq);
    expect(seqOnly.received).toEqual(seqs.map((seq) => ({ console: { entry: { seq } } })));
    for (const feed of [first, second, twos, errorsOnly, seqOnly]) expect(feed.errors).toEqual([]);
  });

  it('refuses an unknown session with its code and guidance, never a stack', async () => {
    const feed = subscriber(FEED, { session: 'no-such-session' });
    await expect.poll(() => feed.errors.length).toBeGreaterThan(0);
    const [error] = feed.errors as Loose[];
    expect(error.extensions).toMatchObject({ code: 'SESSION_NOT_FOUND', retryable: false });
    expect(error.extensions.nextActions.length).toBeGreaterThan(0);
    expect(JSON.stringify(feed.errors)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  });
});
