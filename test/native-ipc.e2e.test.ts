import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, FillDocument, LaunchDocument } from './generated/graphql.js';
import { ELECTRON_TARGETS, FIXTURE_APP_MAIN, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';

const EVAL_POLICY = fileURLToPath(new URL('./native-eval.policy.yaml', import.meta.url));
/** The hooks' cut (MAX_ARGS_JSON in ipc-hooks.ts). */
const ARGS_BOUND = 1_024;

const MESSAGE = '{ direction kind channel args argsLength truncated viaGateway }';

for (const target of ELECTRON_TARGETS) {
  describe(`IPC through the gateway on ${target.name}`, () => {
    let gateway: RunningGateway;
    let api: GatewayClient;
    const data = (query: string) => api.data(query);
    const captured = async (channel: string) =>
      (await data(`{ session { ipc(channel: ${JSON.stringify(channel)}) { entries ${MESSAGE} } } }`)).session
        .ipc.entries;

    beforeAll(async () => {
      gateway = await startGateway({ policyFile: EVAL_POLICY, mutationsPerSecond: 1_000, allowEval: 'main' });
      api = gatewayClient(gateway.url);
      await api.data(LaunchDocument, {
        input: { main: FIXTURE_APP_MAIN, executablePath: target.executablePath, instrumentNative: true },
      });
      await api.data(ClickDocument, { target: { testId: 'stop-ticking' } });
      const armed = await data(
        'mutation { armIpc(channels: ["fixture:notify", "fixture:echo", "fixture:dark-*"]) { channels } }',
      );
      expect(armed.armIpc.channels).toEqual(['fixture:notify', 'fixture:echo', 'fixture:dark-*']);
    });
    afterAll(() => gateway?.stop());

    it('captures and streams what the page sends, and what main sends back, on allowlisted channels only', async () => {
      const client = wsClient(gateway.wsUrl);
      const stream = subscribe<Loose, Record<string, never>>(
        client,
        parse(`subscription { ipc { message ${MESSAGE} droppedBefore } }`) as Loose,
      );
      try {
        await api.data(ClickDocument, { target: { testId: 'notify' } });
        const streamed = await stream.waitFor((event) => event.ipc.message.channel === 'fixture:notify');
        expect(streamed.ipc).toEqual({
          message: {
            direction: 'RENDERER_TO_MAIN',
            kind: 'SEND',
            channel: 'fixture:notify',
            args: '["Hello","From the fixture"]',
            argsLength: 28,
            truncated: false,
            viaGateway: false,
          },
          droppedBefore: 0,
        });
        await data('mutation { invokeMenuItem(path: ["View", "Dark Mode"]) { invoked } }');
        await stream.waitFor((event) => event.ipc.message.channel === 'fixture:dark-mode');
        expect(await captured('fixture:dark-mode')).toEqual([
          expect.objectContaining({ direction: 'MAIN_TO_RENDERER', kind: 'SEND', args: '[true]' }),
        ]);
        // The form's first change sends fixture:form-dirty, which the allowlist does not name.
        await api.data(FillDocument, { target: { testId: 'name' }, value: 'Ada' });
        await expect
          .poll(
            async () => (await data('{ session { menuItem(path: ["File", "Save"]) { enabled } } }')).session,
          )
          .toEqual({ menuItem: { enabled: true } });
        const channels = (await data(`{ session { ipc { entries { channel } } } }`)).session.ipc.entries;
        expect(channels.map((entry: Loose) => entry.channel)).not.toContain('fixture:form-dirty');
      } finally {
        stream.dispose();
        await client.dispose();
      }
    });

    it('invokes a handler with arguments, records the call with secrets redacted, and cuts large arguments', async () => {
      const echoed = await data(
        `mutation { invokeIpc(channel: "fixture:echo", args: ${JSON.stringify(JSON.stringify([1, 'two', { password: 'hunter2' }]))}) { invoked reason json error } }`,
      );
      expect(echoed.invokeIpc).toEqual({
        invoked: true,
        reason: null,
        json: '{"echoed":[1,"two",{"password":"hunter2"}]}',
        error: null,
      });
      // Captured messages reach the gateway by the agent's long poll, just after the invoke returned.
      const echoes = async (count: number) => {
        await expect.poll(async () => (await captured('fixture:echo')).length).toBe(count);
        return captured('fixture:echo');
      };
      const [invoke, result] = await echoes(2);
      expect(invoke).toMatchObject({ direction: 'RENDERER_TO_MAIN', kind: 'INVOKE', viaGateway: true });
      expect(invoke.args).toBe('[1,"two",{"password":"[REDACTED:secret]"}]');
      expect(result).toMatchObject({ direction: 'MAIN_TO_RENDERER', kind: 'RESULT' });
      expect(result.args).not.toContain('hunter2');
      const large = 'x'.repeat(5_000);
      await data(
        `mutation { invokeIpc(channel: "fixture:echo", args: ${JSON.stringify(JSON.stringify([large]))}) { invoked } }`,
      );
      const cut = (await echoes(4)).slice(2);
      expect(cut).toEqual([
        expect.objectContaining({ kind: 'INVOKE', truncated: true, argsLength: 5_004 }),
        expect.objectContaining({ kind: 'RESULT', truncated: true, argsLength: 5_015 }),
      ]);
      expect(cut[0].args.length).toBe(ARGS_BOUND);
    });

    it('reports NO_HANDLER for an IPC channel and for a menu item without a click handler', async () => {
      const ipc = await data('mutation { invokeIpc(channel: "fixture:nothing") { invoked reason } }');
      expect(ipc.invokeIpc).toEqual({ invoked: false, reason: 'NO_HANDLER' });
      const menu = await data(
        'mutation { invokeMenuItem(path: ["Help", "Version 1.0.0"]) { invoked reason label } }',
      );
      expect(menu.invokeMenuItem).toEqual({ invoked: false, reason: 'NO_HANDLER', label: 'Version 1.0.0' });
    });
  });
}
reportRealElectronSkipped('IPC through the gateway');

describe('IPC by default', () => {
  it('is absent from the schema without --allow-eval=main, and invokeIpc is denied by the default policy', async () => {
    const gateway = await startGateway({ policyFile: UNATTENDED_POLICY });
    const api = gatewayClient(gateway.url);
    try {
      const fields = async (type: string) =>
        (await api.data(`{ __type(name: "${type}") { fields { name } } }`)).__type?.fields.map(
          (field: Loose) => field.name,
        ) ?? [];
      expect(await fields('Mutation')).not.toEqual(expect.arrayContaining(['invokeIpc']));
      expect(await fields('Mutation')).not.toContain('armIpc');
      expect(await fields('Subscription')).not.toContain('ipc');
      expect(await fields('Session')).not.toContain('ipc');
      expect(await fields('IpcMessage')).toEqual([]);
      const explained = await api.data('{ explainPolicy(operation: "invokeIpc") { decision risk } }');
      expect(explained.explainPolicy).toEqual({ decision: 'DENY', risk: 'CRITICAL' });
    } finally {
      await gateway.stop();
    }
  });
});
