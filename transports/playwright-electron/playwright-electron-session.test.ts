import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_MAIN, STAND_IN } from '../../test/helpers/fixture-app.js';
import type { TransportEvent } from '../contract/transport-events.js';
import { PlaywrightElectronSession } from './playwright-electron-session.js';

let electron: ElectronApplication;
let session: PlaywrightElectronSession;

beforeAll(async () => {
  electron = await _electron.launch({ executablePath: STAND_IN, args: [FIXTURE_APP_MAIN], timeout: 30_000 });
  session = await PlaywrightElectronSession.start(electron, STAND_IN);
});
afterAll(async () => {
  await session?.dispose();
});

describe('PlaywrightElectronSession before its first listener', () => {
  it('keeps the console lines (not only the output) emitted before anyone listened, in order, for the first listener', async () => {
    const lines = ['before anyone listened 1', 'before anyone listened 2'];
    // Logged over the session's own main channel: the inspector sends a call's console lines on that
    // connection before the call's answer, so once it answers the session has emitted both. (Playwright's
    // 'console' event comes over another connection, and can be seen before the session has its lines.)
    await session.native!.evalMain(
      `(_electron, logged) => { for (const line of logged) console.log(line); return null; }`,
      lines,
    );

    const events: TransportEvent[] = [];
    const stop = session.events.subscribe([{ console: (event) => events.push(event) }]);
    stop();
    const mainLines = events.flatMap((event) =>
      event.type === 'console' && event.message.source === 'MAIN' ? [event.message.text] : [],
    );
    expect(mainLines.filter((text) => text.startsWith('before anyone listened'))).toEqual(lines);
  });
});
