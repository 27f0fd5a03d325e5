import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDP_CALL_TIMEOUT_MS } from '../transports/protocol/cdp-connection.js';
import { ClickDocument, FillDocument, LaunchDocument } from './generated/graphql.js';
import { ELECTRON_TARGETS, FIXTURE_APP_MAIN, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';

const EVAL_POLICY = fileURLToPath(new URL('./native-eval.policy.yaml', import.meta.url));

for (const target of ELECTRON_TARGETS) {
  describe(`native UI through the gateway on ${target.name}`, () => {
    let gateway: RunningGateway;
    let api: GatewayClient;
    const send = (query: string) => api.send(query);
    const data = (query: string) => api.data(query);
    const click = (testId: string) => api.data(ClickDocument, { target: { testId } });
    const statusIs = (text: string) =>
      data(
        `mutation { expect(kind: TEXT, target: { testId: "status" }, equals: ${JSON.stringify(text)}) { actual } }`,
      );

    beforeAll(async () => {
      gateway = await startGateway({ policyFile: EVAL_POLICY, mutationsPerSecond: 1_000, allowEval: 'both' });
      api = gatewayClient(gateway.url);
      await api.data(LaunchDocument, {
        input: { main: FIXTURE_APP_MAIN, executablePath: target.executablePath, instrumentNative: true },
      });
      await click('stop-ticking');
    });
    afterAll(() => gateway?.stop());

    it('reads the application menu exactly as built', async () => {
      const { session } = await data(
        '{ session { applicationMenu { label role type id accelerator enabled checked submenu { label role type id accelerator enabled visible checked } } } }',
      );
      expect(session.applicationMenu.map((item: Loose) => item.label)).toEqual(['File', 'View', 'Help']);
      expect(session.applicationMenu[0].submenu).toEqual([
        expect.objectContaining({
          label: 'New Window',
          id: 'new-window',
          accelerator: 'CommandOrControl+N',
          type: 'NORMAL',
        }),
        expect.objectContaining({ label: 'Save', id: 'save', enabled: false }),
        expect.objectContaining({ type: 'SEPARATOR' }),
        expect.objectContaining({ label: 'Quit', role: 'quit' }),
      ]);
    });

    it('toggles Dark Mode, refuses Save until the form changes, refuses Quit as a role item', async () => {
      const checked = async () =>
        (await data('{ session { menuItem(path: ["View", "Dark Mode"]) { checked } } }')).session.menuItem
          .checked;
      expect(await checked()).toBe(false);
      const toggled = await data(
        'mutation { invokeMenuItem(path: ["View", "Dark Mode"]) { invoked reason label } }',
      );
      expect(toggled.invokeMenuItem).toEqual({ invoked: true, reason: null, label: 'Dark Mode' });
      expect(await checked()).toBe(true);
      const save = 'mutation { invokeMenuItem(path: ["File", "Save"]) { invoked reason label role } }';
      expect((await data(save)).invokeMenuItem).toEqual({
        invoked: false,
        reason: 'DISABLED',
        label: 'Save',
        role: null,
      });
      await api.data(FillDocument, { target: { testId: 'name' }, value: 'Ada' });
      await expect.poll(async () => (await data(save)).invokeMenuItem.reason, { timeout: 10_000 }).toBeNull();
      const quit = await data(
        'mutation { invokeMenuItem(path: ["File", "quit"]) { invoked reason label role } }',
      );
      expect(quit.invokeMenuItem).toEqual({ invoked: false, reason: 'ROLE', label: 'Quit', role: 'quit' });
      const missing = await data('mutation { invokeMenuItem(path: ["File", "Print"]) { invoked reason } }');
      expect(missing.invokeMenuItem).toEqual({ invoked: false, reason: 'NOT_FOUND' });
    });

    it('captures a context menu popped up on right-click, streams it, and invokes an item', async () => {
      const client = wsClient(gateway.wsUrl);
      const stream = subscribe<Loose, Record<string, never>>(
        client,
        parse('subscription { contextMenus { menu { windowId items { label } } } }') as Loose,
      );
      try {
        await api.data(ClickDocument, { target: { testId: 'context-target' }, button: 'RIGHT' });
        const streamed = await stream.waitFor(() => true);
        expect(streamed.contextMenus.menu.windowId).toBe('w1');
        const { session } = await data(
          '{ session { contextMenu { windowId position { x y } items { label type enabled } } } }',
        );
        expect(session.contextMenu.items.map((item: Loose) => item.label)).toEqual([
          'Copy Link',
          '',
          'Highlight',
          'Inspect',
        ]);
        expect(session.contextMenu.position).not.toBeNull();
        const disabled = await data(
          'mutation { invokeContextMenuItem(path: ["Inspect"]) { invoked reason } }',
        );
        expect(disabled.invokeContextMenuItem).toEqual({ invoked: false, reason: 'DISABLED' });
        const chosen = await data(
          'mutation { invokeContextMenuItem(path: ["Copy Link"]) { invoked reason } }',
        );
        expect(chosen.invokeContextMenuItem).toEqual({ invoked: true, reason: null });
        await statusIs('Context: Copy Link');
        expect((await data('{ session { contextMenu { windowId } } }')).session.contextMenu).toBeNull();
      } finally {
        stream.dispose();
        await client.dispose();
      }
    });

    it('reads the start-up tray, clicks it and reads its tooltip back; NO_LISTENER and NOT_FOUND refused', async () => {
      const { session } = await data('{ session { trays { id tooltip hasImage contextMenu { label } } } }');
      expect(session.trays).toEqual([
        {
          id: 't1',
          tooltip: 'Stagegraph Fixture',
          hasImage: true,
          contextMenu: [{ label: 'Show' }, { label: 'Quit' }],
        },
      ]);
      const clicked = await data(
        'mutation { invokeTray(tray: "t1", event: CLICK) { emitted reason tray { tooltip } } }',
      );
      expect(clicked.invokeTray).toEqual({
        emitted: true,
        reason: null,
        tray: { tooltip: 'Stagegraph Fixture (clicked)' },
      });
      const unheard = await data(
        'mutation { invokeTray(tray: "t1", event: DOUBLE_CLICK) { emitted reason } }',
      );
      expect(unheard.invokeTray).toEqual({ emitted: false, reason: 'NO_LISTENER' });
      const gone = await data('mutation { invokeTray(tray: "t9", event: CLICK) { emitted reason } }');
      expect(gone.invokeTray).toEqual({ emitted: false, reason: 'NOT_FOUND' });
    });

    it('keeps the start-up notification as beforeArm, then captures by title once armed', async () => {
      const first = await data('{ session { notifications { entries { title body beforeArm } } } }');
      expect(first.session.notifications.entries).toContainEqual({
        title: 'Fixture started',
        body: 'The fixture app is running.',
        beforeArm: true,
      });
      await data('mutation { armNotifications(titleContains: "Hello") { armed } }');
      await click('notify');
      await data('mutation { invokeMenuItem(path: ["Help", "About"]) { invoked } }');
      await expect
        .poll(
          async () =>
            (
              await data(
                '{ session { notifications(titleContains: "Hello") { entries { title beforeArm } } } }',
              )
            ).session.notifications.entries,
        )
        .toEqual([{ title: 'Hello', beforeArm: false }]);
      const all = await data(
        '{ session { notifications { entries { title } capture { armed titleContains } } } }',
      );
      expect(all.session.notifications.entries.map((entry: Loose) => entry.title)).not.toContain('About');
      expect((await data('mutation { stopNotifications { armed } }')).stopNotifications.armed).toBe(false);
    });

    it('answers each native dialog per policy, cancels what no rule answers, and records every call', async () => {
      await data(
        `mutation { setNativeDialogPolicy(rules: [
          { type: OPEN, filePaths: ["/tmp/a.txt", "/tmp/b.txt"], once: true },
          { type: SAVE, filePaths: ["/tmp/out.txt"] },
          { type: MESSAGE_BOX, response: 1 }
        ]) { type once } }`,
      );
      await click('open-file');
      await statusIs('Open: /tmp/a.txt, /tmp/b.txt');
      await click('open-file');
      await statusIs('Open: cancelled');
      await click('save-file');
      await statusIs('Save: /tmp/out.txt');
      await click('message-box');
      await statusIs('Message box: 1');
      await data('mutation { setNativeDialogPolicy(rules: []) { type } }');
      // The page shows the answer when the call returns; the call's record reaches the gateway on its own
      // channel, so the log is read once the record has been streamed.
      const client = wsClient(gateway.wsUrl);
      const subscribers = gateway.gateway.hub.subscriberCount;
      const calls = subscribe<Loose, Record<string, never>>(
        client,
        parse('subscription { nativeDialogs { call { message } } }') as Loose,
      );
      try {
        await expect
          .poll(() => gateway.gateway.hub.subscriberCount, { timeout: 30_000 })
          .toBe(subscribers + 1);
        await click('message-box-sync');
        // Unanswered: Electron's default cancelId, the button labelled No.
        await statusIs('Message box (sync): 1');
        await calls.waitFor((event) => event.nativeDialogs.call.message === 'Really quit?');
      } finally {
        calls.dispose();
        await client.dispose();
      }
      const { session } = await data(
        '{ session { nativeDialogs { type sync title message answeredBy answer { canceled filePaths response } } } }',
      );
      expect(session.nativeDialogs).toEqual([
        {
          type: 'OPEN',
          sync: false,
          title: 'Open a file',
          message: '',
          answeredBy: 'POLICY',
          answer: { canceled: false, filePaths: ['/tmp/a.txt', '/tmp/b.txt'], response: null },
        },
        {
          type: 'OPEN',
          sync: false,
          title: 'Open a file',
          message: '',
          answeredBy: 'CANCEL',
          answer: { canceled: true, filePaths: [], response: null },
        },
        {
          type: 'SAVE',
          sync: false,
          title: 'Save as',
          message: '',
          answeredBy: 'POLICY',
          answer: { canceled: false, filePaths: ['/tmp/out.txt'], response: null },
        },
        {
          type: 'MESSAGE_BOX',
          sync: false,
          title: 'Discard changes?',
          message: 'Discard your changes?',
          answeredBy: 'POLICY',
          answer: { canceled: false, filePaths: [], response: 1 },
        },
        {
          type: 'MESSAGE_BOX',
          sync: true,
          title: '',
          message: 'Really quit?',
          answeredBy: 'CANCEL',
          answer: { canceled: true, filePaths: [], response: 1 },
        },
      ]);
    });

    it('evaluates in the main process and a window, refusing non-JSON results and reporting throws without a stack', async () => {
      const main = await data(
        'mutation { evalMain(code: "({ app }, arg) => [app.getName(), arg]", arg: "7") { json } }',
      );
      expect(JSON.parse(main.evalMain.json)).toEqual(['Stagegraph Fixture', 7]);
      const page = await data('mutation { evalRenderer(code: "() => document.title") { json } }');
      expect(JSON.parse(page.evalRenderer.json)).toBe('Stagegraph Fixture');
      const notJson = await send('mutation { evalMain(code: "() => new Map()") { json } }');
      expect(notJson.errors?.[0]?.extensions.code).toBe('EVAL_NOT_SERIALIZABLE');
      const thrown = await send(
        'mutation { evalRenderer(code: "() => { throw new Error(\'boom\') }") { json } }',
      );
      expect(thrown.errors?.[0]).toMatchObject({
        message: 'Error: boom',
        extensions: { code: 'EVAL_FAILED' },
      });
      expect(JSON.stringify(thrown.errors)).not.toMatch(/ at /);
      const broken = await send('mutation { evalMain(code: "() => {") { json } }');
      expect(broken.errors?.[0]?.extensions.code).toBe('EVAL_FAILED');
    });

    it("lets main eval run past a protocol call's 10 s deadline when its timeoutMs allows", async () => {
      const settlesLate = `() => new Promise((resolve) => setTimeout(() => resolve('settled'), ${CDP_CALL_TIMEOUT_MS + 500}))`;
      const late = await data(
        `mutation { evalMain(code: ${JSON.stringify(settlesLate)}, timeoutMs: 30000) { json } }`,
      );
      expect(JSON.parse(late.evalMain.json)).toBe('settled');
    }, 60_000);

    it('bounds eval: code that never settles is EVAL_TIMEOUT, a result past 1,000,000 characters EVAL_RESULT_TOO_LARGE', async () => {
      for (const field of ['evalMain', 'evalRenderer']) {
        const hanging = await send(
          `mutation { ${field}(code: "() => new Promise(() => {})", timeoutMs: 300) { json } }`,
        );
        expect(hanging.errors?.[0]?.extensions).toMatchObject({
          code: 'EVAL_TIMEOUT',
          details: { timeoutMs: 300 },
        });
        const huge = await send(`mutation { ${field}(code: "() => 'x'.repeat(1000001)") { json } }`);
        expect(huge.errors?.[0]?.extensions.code).toBe('EVAL_RESULT_TOO_LARGE');
        expect(huge.errors?.[0]?.message).toContain('1000003 characters');
        const fits = await data(`mutation { ${field}(code: "() => 'x'.repeat(999998)") { json } }`);
        expect(fits[field].json).toHaveLength(1_000_000);
      }
    });
  });
}
reportRealElectronSkipped('native UI through the gateway');

describe('native UI without instrumentation, and eval by default', () => {
  it('has no eval fields in the schema by default, refuses trays with NOT_INSTRUMENTED and an executable-only instrumented launch', async () => {
    const gateway = await startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 });
    try {
      const { send } = gatewayClient(gateway.url);
      const types = await send('{ __type(name: "Mutation") { fields { name } } }');
      const names = types.data.__type.fields.map((field: Loose) => field.name);
      expect(names).toContain('invokeMenuItem');
      expect(names).not.toContain('evalMain');
      expect(names).not.toContain('evalRenderer');
      const refused = await send(LaunchDocument, {
        input: { executablePath: ELECTRON_TARGETS[0]?.executablePath, instrumentNative: true },
      });
      expect(refused.errors?.[0]?.extensions?.code).toBe('INSTRUMENTATION_NEEDS_MAIN');
      await send(LaunchDocument, {
        input: { main: FIXTURE_APP_MAIN, executablePath: ELECTRON_TARGETS[0]?.executablePath },
      });
      const trays = await send('{ session { trays { id } } }');
      expect(trays.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_INSTRUMENTED' });
      // Its next actions are this session's own: stop it (it is owned), relaunch its main instrumented.
      const [stop, relaunch] = (trays.errors?.[0]?.extensions?.nextActions ?? []) as string[];
      expect(relaunch).toContain(`main: ${JSON.stringify(FIXTURE_APP_MAIN)}`);
      expect(relaunch).toContain('instrumentNative: true');
      const stopped = await send(stop!);
      expect(stopped.data.stop.status).toBe('STOPPED');
      expect((await send(relaunch!)).data.launch.status).toBe('RUNNING');
      expect((await send('{ sessions { status } }')).data.sessions.map((s: Loose) => s.status)).toEqual([
        'STOPPED',
        'RUNNING',
      ]);
      const relaunchedTrays = await send('{ session { trays { id } } }');
      expect(relaunchedTrays.errors).toBeUndefined();
      const menu = await send('{ session { menuItem(path: ["View", "Dark Mode"]) { type } } }');
      expect(menu.errors).toBeUndefined();
      expect(menu.data.session.menuItem.type).toBe('CHECKBOX');
    } finally {
      await gateway.stop();
    }
  });
});
