import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import {
  DESKTOP_AVAILABLE,
  type DesktopFixture,
  desktopSkipReason,
  startDesktopFixture,
} from '../../../test/helpers/desktop-fixture.js';
import { type RawNode, type RawSnapshot, REDACTED_VALUE } from '../../contract/window-driver.js';
import type { AtspiBus } from '../bus/atspi-bus.js';
import { createDesktopInput, type DesktopInput } from '../input/desktop-input.js';
import { KeyTable } from '../tree/key-table.js';
import { DesktopWindowDriver } from './desktop-window-driver.js';

const WAIT_MS = 30_000;

let fixture: DesktopFixture;
let bus: AtspiBus;
let driver: DesktopWindowDriver;
let input: DesktopInput | undefined;

function find(snapshot: RawSnapshot, role: string, name: string): RawNode {
  const node = snapshot.nodes.find((candidate) => candidate.role === role && candidate.name === name);
  if (!node) throw new Error(`no ${role} named ${name} in the snapshot`);
  return node;
}

async function failure(promise: Promise<unknown>): Promise<StagegraphError> {
  try {
    await promise;
  } catch (error) {
    return error as StagegraphError;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  fixture = await startDesktopFixture();
  bus = fixture.bus;
  const desktopInput = createDesktopInput(bus, fixture.host.display);
  input = desktopInput;
  driver = new DesktopWindowDriver({
    bus,
    window: await fixture.window('Desktop Fixture'),
    keys: new KeyTable(),
    input: desktopInput,
  });
}, 120_000);

afterAll(async () => {
  driver?.dispose();
  await input?.dispose?.();
  await fixture?.stop();
});

if (!DESKTOP_AVAILABLE) {
  describe.skip(`DesktopWindowDriver on the GTK fixture (${desktopSkipReason})`, () => {
    it('reads and drives the fixture', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('DesktopWindowDriver on the GTK fixture', () => {
  it('reads the form with page-engine roles and names, secrets redacted, and the 1,000 rows', async () => {
    let started = Date.now();
    const first = await driver.snapshot({});
    const firstMs = Date.now() - started;
    started = Date.now();
    const second = await driver.snapshot({});
    const secondMs = Date.now() - started;
    started = Date.now();
    await driver.snapshot({ bounds: false });
    const unboundedMs = Date.now() - started;
    console.log(
      `full snapshot of ${first.nodes.length} nodes: first ${firstMs} ms, second ${secondMs} ms, second without bounds ${unboundedMs} ms`,
    );

    expect(first.title).toBe('Desktop Fixture');
    expect(first.nodes[0]?.role).toBe('window');
    expect(find(first, 'textbox', 'Name').value).toBe('');
    const password = find(first, 'textbox', 'Password');
    expect(password.value).toBe(REDACTED_VALUE);
    expect(password.secret).toBe(true);
    expect(password.atspiRole).toBe('password text');
    expect(find(first, 'checkbox', 'Subscribe').interactive).toBe(true);
    expect(find(first, 'combobox', 'Colour').value).toBe('Red');
    expect(find(first, 'spinbutton', 'Quantity').value).toBe('0');
    const submit = find(first, 'button', 'Submit');
    expect(submit.bbox?.width).toBeGreaterThan(0);
    expect(submit.atspiPath).toMatch(/^\/org\/a11y\/atspi\/accessible\//);
    expect(find(first, 'menuitem', 'Save').states).toContain('DISABLED');
    const rows = first.nodes.filter((node) => node.role === 'listitem');
    expect(rows).toHaveLength(1000);
    expect(rows[999]?.name).toBe('Row 1000');

    const keyOf = (snapshot: RawSnapshot) =>
      new Map(snapshot.nodes.map((node) => [`${node.role}|${node.name}`, node.key]));
    expect(keyOf(second)).toEqual(keyOf(first));
    expect(second.documentId).toBe(first.documentId);
  }, 120_000);

  it('honours interactiveOnly, within and depth', async () => {
    const interactive = await driver.snapshot({ interactiveOnly: true, bounds: false });
    expect(interactive.nodes.slice(1).every((node) => node.interactive)).toBe(true);
    expect(interactive.nodes.some((node) => node.role === 'text')).toBe(false);
    const list = find(await driver.snapshot({ bounds: false }), 'listbox', '');
    const within = await driver.snapshot({ within: list.key, bounds: false });
    expect(within.nodes[0]?.key).toBe(list.key);
    expect(within.nodes.slice(1).every((node) => node.role === 'listitem')).toBe(true);
    expect(within.nodes).toHaveLength(1001);
    const shallow = await driver.snapshot({ depth: 1, bounds: false });
    const rootKey = shallow.nodes[0]?.key;
    expect(shallow.nodes.slice(1).every((node) => node.parent === rootKey)).toBe(true);
  }, 60_000);

  it('reports a disabled menu item with the page engine code', async () => {
    const error = await failure(
      driver.act(
        { spec: { kind: 'role', role: 'menuitem', name: 'Save', exact: true } },
        { type: 'click' },
        1_000,
      ),
    );
    expect(error.code).toBe('ELEMENT_DISABLED');
  }, 60_000);

  it('answers AMBIGUOUS_TARGET with candidates, and SELECTOR_NO_MATCH for none', async () => {
    const ambiguous = await failure(driver.locate({ spec: { kind: 'text', text: 'Row 1' } }, 1_000));
    expect(ambiguous.code).toBe('AMBIGUOUS_TARGET');
    const details = ambiguous.details as { count: number; candidates: { node: RawNode }[] };
    expect(details.count).toBe(112);
    expect(details.candidates).toHaveLength(10);
    expect(details.candidates[0]?.node.name).toBe('Row 1');
    const exact = await driver.locate({ spec: { kind: 'text', text: 'Row 1', exact: true } }, 1_000);
    expect(exact.node.role).toBe('listitem');
    const none = await failure(driver.locate({ spec: { kind: 'role', role: 'button', name: 'Nope' } }, 500));
    expect(none.code).toBe('SELECTOR_NO_MATCH');
    const selector = await failure(driver.locate({ spec: { kind: 'selector', selector: '#x' } }, 500));
    expect(selector.code).toBe('BAD_INPUT');
  }, 60_000);

  it('fills, checks and selects through AT-SPI, and the app sees each', async () => {
    await driver.act(
      { spec: { kind: 'role', role: 'textbox', name: 'Name' } },
      { type: 'fill', value: 'Ada' },
      WAIT_MS,
    );
    await fixture.printed('name=Ada');
    expect(find(await driver.snapshot({ bounds: false }), 'textbox', 'Name').value).toBe('Ada');

    await driver.act(
      { spec: { kind: 'role', role: 'checkbox', name: 'Subscribe' } },
      { type: 'setChecked', checked: true },
      WAIT_MS,
    );
    await fixture.printed('subscribe=True');

    await driver.act(
      { spec: { kind: 'role', role: 'combobox', name: 'Colour' } },
      { type: 'selectOption', labels: ['Green'] },
      WAIT_MS,
    );
    await fixture.printed('colour=Green');
    const result = await driver.expect(
      'VALUE',
      { equals: 'Green' },
      { spec: { kind: 'role', role: 'combobox', name: 'Colour' } },
      WAIT_MS,
    );
    expect(result.actual).toBe('Green');

    await driver.act(
      { spec: { kind: 'role', role: 'spinbutton', name: 'Quantity' } },
      { type: 'fill', value: '3' },
      WAIT_MS,
    );
    await fixture.printed('quantity=3');

    // File > Save, enabled by the edit, is activated in its closed menu.
    await driver.act(
      { spec: { kind: 'role', role: 'menuitem', name: 'Save', exact: true } },
      { type: 'click' },
      WAIT_MS,
    );
    await fixture.printed('status=Saved');

    const list = { spec: { kind: 'role' as const, role: 'listbox' } };
    await driver.act(list, { type: 'selectOption', labels: ['Row 3'] }, WAIT_MS);
    const row = { spec: { kind: 'role' as const, role: 'listitem', name: 'Row 3', exact: true } };
    await driver.expect('VISIBLE', {}, row, WAIT_MS);
    const rowNode = await driver.locate(row, WAIT_MS);
    expect(rowNode.node.states).toContain('SELECTED');

    const nameField = find(await driver.snapshot({ bounds: false }), 'textbox', 'Name');
    await driver.markSecret(nameField.key);
    const redacted = find(await driver.snapshot({ bounds: false }), 'textbox', 'Name');
    expect(redacted.value).toBe(REDACTED_VALUE);
    expect(redacted.secret).toBe(true);
  }, 120_000);

  it('waits for a later change on the app signals', async () => {
    const status = find(await driver.snapshot({ bounds: false }), 'text', 'Saved');
    const target = {
      spec: {
        kind: 'key' as const,
        key: status.key,
        ref: 'e1',
        documentId: (await driver.snapshot({ depth: 0, bounds: false })).documentId,
      },
    };
    const before = await driver.nextChange(null, 0);
    await driver.act(
      { spec: { kind: 'role', role: 'button', name: 'Change later' } },
      { type: 'click' },
      WAIT_MS,
    );
    const result = await driver.expect('TEXT', { equals: 'Changed' }, target, WAIT_MS);
    expect(result.actual).toBe('Changed');
    await fixture.printed('status=Changed');
    expect(await driver.nextChange(before, WAIT_MS)).toBeGreaterThan(before);
    const failed = await failure(driver.expect('TEXT', { equals: 'Never' }, target, 300));
    expect(failed.code).toBe('EXPECTATION_FAILED');
  }, 60_000);

  it('types and presses through the X keyboard, clicks at a position and captures the window', async () => {
    const name = { spec: { kind: 'role' as const, role: 'textbox', name: 'Name' } };
    await driver.act(name, { type: 'clear' }, WAIT_MS);
    await fixture.printed('name=');
    await driver.act(name, { type: 'type', text: 'Bo' }, WAIT_MS);
    await fixture.printed('name=Bo');
    await driver.act(
      { spec: { kind: 'role', role: 'checkbox', name: 'Subscribe' } },
      { type: 'press', key: 'space' },
      WAIT_MS,
    );
    await fixture.printed('subscribe=False');
    await driver.act(
      { spec: { kind: 'role', role: 'button', name: 'Submit' } },
      { type: 'click', position: { x: 4, y: 4 } },
      WAIT_MS,
    );
    await fixture.printed('status=Submitted Bo');

    const snapshot = await driver.snapshot({ depth: 0 });
    const shot = await driver.screenshot({ format: 'png' }, WAIT_MS);
    expect(shot.format).toBe('png');
    expect(shot.width).toBeGreaterThanOrEqual(640);
    expect(shot.height).toBeGreaterThanOrEqual(snapshot.nodes[0]?.bbox?.height ?? 1);
    const button = await driver.screenshot(
      { format: 'png', target: { spec: { kind: 'role', role: 'button', name: 'Submit' } } },
      WAIT_MS,
    );
    expect(button.width).toBeLessThan(shot.width);
  }, 120_000);

  it('refuses what a desktop window cannot do with registered codes', async () => {
    const submit = { spec: { kind: 'role' as const, role: 'button', name: 'Submit' } };
    expect((await failure(driver.act(submit, { type: 'setInputFiles', paths: ['/tmp/x'] }, 500))).code).toBe(
      'CAPABILITY_UNSUPPORTED',
    );
    expect((await failure(driver.html(undefined, true, 100))).code).toBe('CAPABILITY_UNSUPPORTED');
    expect((await failure(driver.expect('URL', { equals: 'x' }, undefined, 500))).code).toBe(
      'CAPABILITY_UNSUPPORTED',
    );
    expect((await failure(driver.act(submit, { type: 'fill', value: 'x' }, 500))).code).toBe(
      'ELEMENT_NOT_EDITABLE',
    );
    expect(await driver.history()).toBeNull();
    expect(await driver.waitForLoad('LOAD', 500)).toBe(true);
    expect(await driver.countMatches([submit, { spec: { kind: 'text', text: 'Row 1' } }])).toEqual([1, 112]);
    expect(await driver.testIds(10)).toEqual([]);
    const noId = await failure(driver.locate({ spec: { kind: 'testId', testId: 'submit' } }, 300));
    expect(noId.code).toBe('SELECTOR_NO_MATCH');
    const title = await driver.expect('TITLE', { equals: 'Desktop Fixture' }, undefined, 500);
    expect(title.actual).toBe('Desktop Fixture');
  }, 60_000);
});
