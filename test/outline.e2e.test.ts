import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClickEffectDocument,
  InteractiveNodesDocument,
  LaunchDocument,
  WindowOutlineDocument,
} from './generated/graphql.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { FIXTURE_HOSTS, type FixtureSession } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/**
 * Safety nets only, for starting Chromium and a session and for a test's round trips on a loaded machine
 * (load 90 on two cores took a plain Chromium session's start past the 60 s default); nothing waits for time.
 */
const SAFETY_NET_MS = 300_000;

/**
 * Issue 14, defects 5 and 8: an action's effect says what changed (each changed node with its role, name
 * and every changed field before and after, and the diff as outline lines), and the outline is the
 * smallest faithful text (no row repeating its cells, options folded into their select, links' targets).
 */
for (const host of FIXTURE_HOSTS) {
  describe(`effects and outlines on ${host.name}`, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    }, SAFETY_NET_MS);
    afterAll(() => app?.stop(), SAFETY_NET_MS);

    const subscribe = { role: 'checkbox', name: 'Subscribe' };

    it(
      'a click that toggles a checkbox gives a changed entry with its role, name and states before and after',
      async () => {
        const { click } = await app.data(ClickEffectDocument, { target: subscribe });
        const entry = click?.diff?.changed.find((changed) => changed.role === 'checkbox');
        expect(entry).toMatchObject({ role: 'checkbox', name: 'Subscribe' });
        const states = entry?.changes.find((change) => change.field === 'states');
        expect(states?.before?.split(' ')).not.toContain('CHECKED');
        expect(states?.after?.split(' ')).toContain('CHECKED');
        expect(entry?.changes.map((change) => change.field)).not.toContain('name');
      },
      SAFETY_NET_MS,
    );

    it(
      'writes the diff as outline lines: - removed, ~ changed with what it was, + added',
      async () => {
        // The second toggle replaces the status text the first one wrote: a text leaves, another arrives.
        const { click } = await app.data(ClickEffectDocument, { target: subscribe });
        const lines = click?.diff?.outline.split('\n') ?? [];
        expect(lines).toContainEqual(expect.stringMatching(/^- e\d+ text "Subscribed: true"$/));
        expect(lines).toContainEqual(
          expect.stringMatching(
            /^~ e\d+ checkbox "Subscribe" (\[focused\] )?\(was \[checked( focused)?\]\)$/,
          ),
        );
        expect(lines).toContainEqual(expect.stringMatching(/^\+ e\d+ text "Subscribed: false"$/));
      },
      SAFETY_NET_MS,
    );

    it(
      'folds a select’s options into its line, and lists them read within the select',
      async () => {
        const outline = (await app.data(WindowOutlineDocument, {})).session?.window?.snapshot.outline ?? '';
        const select = /^ *(e\d+) combobox "Color" = "Red" \(3 options\)$/m.exec(outline);
        expect(select, outline).not.toBeNull();
        expect(outline).not.toMatch(/option "Green"/);
        const within = await app.data(WindowOutlineDocument, { within: select?.[1] });
        expect(within.session?.window?.snapshot.outline.split('\n')).toEqual([
          `${select?.[1]} combobox "Color" = "Red" (3 options)`,
          expect.stringMatching(/^ e\d+ option "Red" \[selected\]$/),
          expect.stringMatching(/^ e\d+ option "Green"$/),
          expect.stringMatching(/^ e\d+ option "Blue"$/),
        ]);
      },
      SAFETY_NET_MS,
    );

    it(
      'lists every interactive node of the interactive outline, one line each',
      async () => {
        const outline =
          (await app.data(WindowOutlineDocument, { interactiveOnly: true })).session?.window?.snapshot
            .outline ?? '';
        const nodes = (await app.data(InteractiveNodesDocument, {})).session?.window?.snapshot.nodes ?? [];
        for (const node of nodes.slice(1)) expect(outline).toContain(`${node.ref} ${node.role}`);
      },
      SAFETY_NET_MS,
    );
  });
}

describe('outline weight on plain Chromium', () => {
  const PAGE = new URL('../fixtures/pages/outline-weight.html', import.meta.url).href;
  let gateway: RunningGateway;
  let outline: string[];
  beforeAll(async () => {
    gateway = await startGateway({}, [plainChromiumTransport(PAGE)]);
    const client = gatewayClient(gateway.url);
    await client.data(LaunchDocument, { input: { main: 'outline-weight.html' } });
    const read = await client.data(WindowOutlineDocument, {});
    outline = read.session?.window?.snapshot.outline.split('\n') ?? [];
  }, SAFETY_NET_MS);
  afterAll(() => gateway?.stop(), SAFETY_NET_MS);

  it('does not repeat a row’s cells in the row, nor a cell’s select or button in the cell', () => {
    const row = outline.findIndex((line) => line.includes('cell "Ada Lovelace"')) - 2;
    expect(outline.slice(row, row + 8)).toEqual([
      expect.stringMatching(/^ {2}e\d+ row$/),
      expect.stringMatching(/^ {3}e\d+ cell "1"$/),
      expect.stringMatching(/^ {3}e\d+ cell "Ada Lovelace"$/),
      expect.stringMatching(/^ {3}e\d+ cell$/),
      expect.stringMatching(/^ {4}e\d+ combobox "Status of order 1" = "Open" \(3 options\)$/),
      expect.stringMatching(/^ {3}e\d+ cell$/),
      expect.stringMatching(/^ {4}e\d+ button "Edit"$/),
      expect.stringMatching(/^ {4}e\d+ link "Details" <#order-1>$/),
    ]);
    expect(outline.join('\n')).not.toMatch(/option "Pending"/);
  });

  it('keeps a name that says more than the cells, and shows where links go', () => {
    expect(outline).toContainEqual(expect.stringMatching(/^ {2}e\d+ row "Order 2, archived"$/));
    expect(outline).toContainEqual(
      expect.stringMatching(/^ {4}e\d+ link "History" <https:\/\/example\.test\/orders\/2\?tab=history>$/),
    );
    expect(outline).toContainEqual(expect.stringMatching(/^ {2}e\d+ caption "Open orders"$/));
    expect(outline).not.toContainEqual(expect.stringMatching(/text "Open orders"/));
    expect(outline).toContainEqual(expect.stringMatching(/^ e\d+ heading level=2$/));
    expect(outline).toContainEqual(expect.stringMatching(/^ {2}e\d+ link "Orders" <#orders>$/));
  });
});

reportRealElectronSkipped('effects and outlines');
