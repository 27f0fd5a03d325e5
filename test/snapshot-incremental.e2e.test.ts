import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import { type Loose, UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

const rows = Array.from(
  { length: 40 },
  (_, i) =>
    `<tr><td>Order ${i + 1}</td><td><button type="button" onclick="this.closest('tr').cells[0].textContent = 'Order ${i + 1} edited'">Edit ${i + 1}</button></td></tr>`,
).join('');
const PAGE = `data:text/html,${encodeURIComponent(
  `<!doctype html><title>Incremental</title><main><h1>Orders</h1><table><tbody>${rows}</tbody></table></main>`,
)}`;

const DIFF =
  '{ session { window { snapshot(since: "LAST") { nodes { ref } diff { empty added { ref } removed { ref } changed { ref changedFields role name } } } } } }';

/**
 * Repeated whole-page reads go through the in-page model: the gateway answers `since: LAST` from what
 * changed, and says exactly that.
 */
describe('incremental snapshots through the gateway', () => {
  let gateway: RunningGateway;
  let app: GatewayClient;
  beforeAll(async () => {
    gateway = await startGateway({ policyFile: UNATTENDED_POLICY }, [plainChromiumTransport(PAGE)]);
    app = gatewayClient(gateway.url);
    await app.data(LaunchDocument, { input: { main: 'incremental.html' } });
  }, 120_000);
  afterAll(() => gateway?.stop());

  const nodes = async (fields: string) =>
    (await app.data(`{ session { window { snapshot { nodes { ${fields} } } } } }`)).session.window.snapshot
      .nodes as Loose[];

  it('answers a repeated since: LAST with an empty diff, and after one change with exactly it', async () => {
    const before = await nodes('ref role name');
    const quiet = (await app.data(DIFF)).session.window.snapshot;
    expect(quiet.nodes).toEqual([]);
    expect(quiet.diff).toMatchObject({ empty: true, added: [], removed: [], changed: [] });

    await app.data('mutation { click(target: { role: "button", name: "Edit 7" }) { elapsedMs } }');
    const { diff } = (await app.data(DIFF)).session.window.snapshot;
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    const cell = before.find((node) => node.role === 'cell' && node.name === 'Order 7');
    const row = before.find((node) => node.role === 'row' && node.name === 'Order 7 Edit 7');
    const button = before.find((node) => node.role === 'button' && node.name === 'Edit 7');
    // The cell's text and so the row's name; the click also focused the button.
    expect(diff.changed).toEqual(
      expect.arrayContaining([
        {
          ref: cell.ref,
          changedFields: ['name'],
          role: 'cell',
          name: 'Order 7 edited',
        },
        {
          ref: row.ref,
          changedFields: ['name'],
          role: 'row',
          name: 'Order 7 edited Edit 7',
        },
      ]),
    );
    expect(diff.changed.map((entry: Loose) => entry.ref).sort()).toEqual(
      [cell.ref, row.ref, ...(diff.changed.length === 3 ? [button.ref] : [])].sort(),
    );

    const again = (await app.data(DIFF)).session.window.snapshot;
    expect(again.diff.empty).toBe(true);
  });

  it('reads the same refs and names from the model as from a full walk (boxes asked)', async () => {
    await app.data('mutation { click(target: { role: "button", name: "Edit 12" }) { elapsedMs } }');
    const modelled = await nodes('ref role name states value');
    const walked = await nodes('ref role name states value bbox { x }');
    expect(modelled).toEqual(walked.map(({ bbox: _bbox, ...node }) => node));
  });
});
