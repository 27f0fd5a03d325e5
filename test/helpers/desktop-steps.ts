import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import type { GatewayClient, Loose } from './gateway-client.js';

/** The lines a desktop session's app has printed so far: its stdout.log in the session's artifacts folder. */
export function appSaid(artifactsDir: string, sessionId: string): string[] {
  try {
    return readFileSync(join(artifactsDir, sessionId, 'stdout.log'), 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** How long a desktop app may take to print what a step made it do, on a loaded machine; a safety net. */
const SAID_TIMEOUT_MS = 30_000;

/**
 * The two steps of a desktop end-to-end test: `act` sends a mutation that must succeed and gives its data,
 * `said` waits until the app printed a line. The client and the session are read when a step runs, since a
 * test sets them in its beforeAll.
 */
export function desktopSteps(
  artifactsDir: string,
  current: () => { readonly api: Pick<GatewayClient, 'send'>; readonly session: string },
) {
  const act = async (operation: string): Promise<Loose> => {
    const response = await current().api.send(`mutation { ${operation} }`);
    expect(response.errors, `${operation}: ${JSON.stringify(response.errors)}`).toBeUndefined();
    return response.data as Loose;
  };
  return {
    act,
    said: (line: string) =>
      expect
        .poll(() => appSaid(artifactsDir, current().session), { timeout: SAID_TIMEOUT_MS })
        .toContain(line),
    /** Clicks the button named `button` and waits until the menu it opens shows its item `item`. */
    async openMenu(button: string, item: string): Promise<void> {
      const { session } = current();
      await act(`click(session: "${session}", target: { role: "button", name: "${button}" }) { windowId }`);
      await act(
        `expect(session: "${session}", kind: VISIBLE, target: { role: "menuitem", name: "${item}" }, timeoutMs: 10000) { actual }`,
      );
    },
  };
}

/**
 * Launches a desktop app through GraphQL (`command` with `args`) and waits until it printed a line starting
 * with `ready`: the fixtures print one once their window is up. Answers the session's id and the app's pid.
 */
export async function launchDesktopApp(
  api: Pick<GatewayClient, 'data'>,
  artifactsDir: string,
  command: string,
  args: readonly string[],
  ready: string,
): Promise<{ id: string; pid: number }> {
  const { launchDesktop } = await api.data(
    `mutation { launchDesktop(input: { command: ${JSON.stringify(command)}, args: ${JSON.stringify(args)}, timeoutMs: 90000 }) { id pid } }`,
  );
  // vi.waitFor, not expect.poll: this runs in a beforeAll, outside any test.
  await vi.waitFor(
    () => {
      if (!appSaid(artifactsDir, launchDesktop.id).some((line) => line.startsWith(ready)))
        throw new Error(`${command} ${args.join(' ')} has not printed "${ready}…" yet`);
    },
    { timeout: SAID_TIMEOUT_MS },
  );
  return launchDesktop;
}

/** The id of the session's window titled `title`, once the session lists it (a dialog opening). */
export async function windowTitled(
  api: Pick<GatewayClient, 'data'>,
  session: string,
  title: string,
): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const { session: listed } = await api.data(`{ session(id: "${session}") { windows { id title } } }`);
        id = listed.windows.find((window: Loose) => window.title === title)?.id ?? '';
        return id;
      },
      { timeout: SAID_TIMEOUT_MS },
    )
    .not.toBe('');
  return id;
}

/**
 * What the calculator fixtures (GTK4 and Qt, built alike) are both checked for, every step through GraphQL:
 * button "1" reads visible and enabled and "Undo" disabled through `expect`; C 1 2 + 3 = clicked by role and
 * name make the app show 15; a click on the disabled Undo is refused.
 */
export function calculatorSteps(
  artifactsDir: string,
  current: () => { readonly api: Pick<GatewayClient, 'send' | 'failure'>; readonly session: string },
) {
  const { act, said } = desktopSteps(artifactsDir, current);
  return {
    async expectsStates(): Promise<void> {
      const { session } = current();
      for (const [kind, name] of [
        ['VISIBLE', '1'],
        ['ENABLED', '1'],
        ['DISABLED', 'Undo'],
      ]) {
        const { expect: met } = await act(
          `expect(session: "${session}", kind: ${kind}, target: { role: "button", name: "${name}" }, timeoutMs: 5000) { actual }`,
        );
        expect(met.actual).toBe('true');
      }
    },
    async addsTwelveAndThree(): Promise<void> {
      const { api, session } = current();
      for (const key of ['C', '1', '2', '+', '3', '=']) {
        await act(
          `click(session: "${session}", target: { role: "button", name: "${key}", exact: true }) { windowId }`,
        );
      }
      await said('display=15');
      const refused = await api.failure(
        `mutation { click(session: "${session}", target: { role: "button", name: "Undo" }, timeoutMs: 1000) { windowId } }`,
      );
      expect(refused.code).toBe('ELEMENT_DISABLED');
    },
  };
}
