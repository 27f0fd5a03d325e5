import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { desktopSteps, launchDesktopApp } from './helpers/desktop-steps.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';

if (!DESKTOP_AVAILABLE) {
  describe.skip(`a desktop app as a new user first meets it (${desktopSkipReason})`, () => {
    it('confirms typed keys by what the app did, and fails a key it showed no sign of', () => {});
  });
}

/**
 * What a new user met first on desktop apps (issue 35), on the GTK fixture on a desktop the gateway owns,
 * every step through GraphQL: a key is answered ok only once the app showed it got it — the field's text or
 * caret moved, or the app sent an accessibility event — and otherwise fails with DESKTOP_INPUT_NOT_CONFIRMED
 * (keys sent to no X server had been answered ok in 20 ms); a role's name means what the query language's
 * `name=` means; a coordinate click the default policy denies names the rule that would allow it.
 */
describe.runIf(DESKTOP_AVAILABLE)('a desktop app as a new user first meets it', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let session: string;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-input-'));
  const { act, said } = desktopSteps(artifactsDir, () => ({ api, session }));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir }, [createAtspiTransport({ environment: withoutDesktop() })]);
    api = gatewayClient(gateway.url);
    ({ id: session } = await launchDesktopApp(api, artifactsDir, SYSTEM_PYTHON, [FIXTURE_APP], 'ready'));
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('answers a typed text once the field holds it, and a pressed key once the text changed', async () => {
    await act(
      `type(session: "${session}", target: { role: "textbox", name: "Name" }, text: "Ada") { elapsedMs }`,
    );
    await said('name=Ada');
    // GTK3 selects an entry's text as it takes the focus: Backspace empties it, and the text changing confirms it.
    await act(
      `press(session: "${session}", target: { role: "textbox", name: "Name" }, key: "Backspace") { elapsedMs }`,
    );
    await said('name=');
    await act(
      `type(session: "${session}", target: { role: "textbox", name: "Name" }, text: "Bo") { elapsedMs }`,
    );
    await said('name=Bo');
  });

  it('fails a key the app showed no sign of with DESKTOP_INPUT_NOT_CONFIRMED, not ok', async () => {
    // A read first: the app's events of the last step arrive before its answer, so none is counted for F12.
    await act(
      `expect(session: "${session}", kind: TEXT, target: { role: "textbox", name: "Name" }, equals: "Bo") { actual }`,
    );
    const refused = await api.failure(
      `mutation { press(session: "${session}", target: { role: "textbox", name: "Name" }, key: "F12", timeoutMs: 2000) { elapsedMs } }`,
    );
    expect(refused.code).toBe('DESKTOP_INPUT_NOT_CONFIRMED');
    expect(refused.message).toMatch(/press on textbox "Name".*text and caret did not change/);
    expect(refused.hint).toMatch(/fill/);
    expect(refused.nextActions[0]).toContain(`session(id: "${session}")`);
  });

  it('names a role target as the query language does: the whole name, or a part of it with exact: false', async () => {
    const hover = (target: string) =>
      `mutation { hover(session: "${session}", target: ${target}, timeoutMs: 1000) { target { name } } }`;
    // "Subm" is a part of "Submit": `name=` does not find it, and neither does a role + name target.
    expect((await api.failure(hover('{ query: "role=button name=Subm" }'))).code).toBe('SELECTOR_NO_MATCH');
    expect((await api.failure(hover('{ role: "button", name: "Subm" }'))).code).toBe('SELECTOR_NO_MATCH');
    const part = await api.data(hover('{ role: "button", name: "subm", exact: false }'));
    const query = await api.data(hover('{ query: "role=button name~=subm" }'));
    expect([part.hover.target.name, query.hover.target.name]).toEqual(['Submit', 'Submit']);
  });

  it('refuses a coordinate click by the default policy with the rule to add for this app in its hint', async () => {
    const refused = await api.failure(
      `mutation { click(session: "${session}", target: { role: "button", name: "Submit" }, position: { x: 2, y: 2 }) { elapsedMs } }`,
    );
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.details.rule.id).toBe('default:CRITICAL');
    expect(refused.hint).toContain(
      `{ id: coordinate-clicks, operation: [click], session: { executable: "${SYSTEM_PYTHON}" }, args: { position: true }, decision: ALLOW }`,
    );
  });
});
