import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DESKTOP_AVAILABLE, desktopSkipReason } from '../../test/helpers/desktop-fixture.js';
import { openDesktop } from './desktop-host.js';

const WAIT_MS = 30_000;

if (!DESKTOP_AVAILABLE) {
  describe.skip(`an owned desktop (${desktopSkipReason})`, () => {
    it('leaves nothing behind once disposed: its session bus socket goes with it', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('an owned desktop', () => {
  it('leaves nothing behind once disposed: its session bus socket goes with it', async () => {
    const host = await openDesktop({}, WAIT_MS);
    const socket = /unix:path=([^,]+)/.exec(host.sessionBusAddress)?.[1];
    try {
      expect(socket).toBeDefined();
      expect(existsSync(socket as string)).toBe(true);
    } finally {
      await host.dispose();
    }
    // The bus is killed with its group and cannot remove its own socket: it must live in what dispose removes.
    expect(existsSync(socket as string)).toBe(false);
  });
});
