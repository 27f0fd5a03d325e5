import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execute, parse } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../domain/events/event-hub.js';
import type { SessionTopics } from '../domain/events/session-topics.js';
import { Governance } from '../domain/governance/governance.js';
import { SessionRegistry } from '../domain/sessions/session-registry.js';
import { fakeTransport, fakeTransportSession } from '../test/helpers/fake-transport.js';
import type { RequestWatch, TargetQuery, WindowDriver } from '../transports/contract/window-driver.js';
import { buildSchema } from './index.js';

const CLICK = parse('mutation { click(target: { role: "button", name: "Go" }) { windowId } }');

/** A window whose one button is found by every `locate`; each call is counted. */
function buttonWindow() {
  const driver = {
    locate: vi.fn(async (_target: TargetQuery, _timeoutMs: number) => ({
      documentId: 'd1',
      node: { key: 1, parent: null, role: 'button', name: 'Go', states: [], interactive: true },
    })),
    act: vi.fn(async (_target: TargetQuery, _action: unknown, _timeoutMs: number) => {}),
    // A window that starts no requests: the watch every action opens has nothing to wait for.
    watchRequests: async (): Promise<RequestWatch> => ({
      finished: 0,
      pending: () => [],
      idle: async () => {},
      end: () => {},
    }),
  };
  return { driver, window: () => driver as unknown as WindowDriver };
}

let auditDir: string | undefined;
afterEach(async () => {
  if (auditDir) await rm(auditDir, { recursive: true, force: true });
});

async function gateway(governed: boolean) {
  const { driver, window } = buttonWindow();
  const hub = new EventHub<SessionTopics>();
  const session = fakeTransportSession({ window });
  const sessions = new SessionRegistry(
    [fakeTransport('playwright-electron', ['LAUNCH', 'INTERACTION'], session)],
    hub,
  );
  await sessions.launch({ main: '/app/main.js' });
  auditDir = await mkdtemp(join(tmpdir(), 'stagegraph-handover-'));
  const governance = governed ? await Governance.open({ sessions, auditDir }) : null;
  const run = () =>
    execute({ schema: buildSchema(), document: CLICK, contextValue: { sessions, hub, governance } });
  return { driver, run, close: () => governance?.close() };
}

describe('the chokepoint hands its resolved target over to the action', () => {
  it('so a governed click finds its button once, in the preview, and acts on what the policy saw', async () => {
    const { driver, run, close } = await gateway(true);
    expect((await run()).errors).toBeUndefined();
    await close();
    expect(driver.locate).toHaveBeenCalledTimes(1);
    expect(driver.act).toHaveBeenCalledTimes(1);
    expect(driver.act.mock.calls[0]?.[0]).toEqual(driver.locate.mock.calls[0]?.[0]);
  });

  it('and an ungoverned click, handed nothing, finds it itself', async () => {
    const { driver, run } = await gateway(false);
    expect((await run()).errors).toBeUndefined();
    expect(driver.locate).toHaveBeenCalledTimes(1);
    expect(driver.act).toHaveBeenCalledTimes(1);
  });
});
