import { describe, expect, it } from 'vitest';
import type { WindowDriver } from '../../transports/contract/window-driver.js';
import { awaitWindowDriver } from './window-driver-wait.js';

const DRIVER = {} as WindowDriver;

describe('awaitWindowDriver', () => {
  it('answers the driver its transport gets after the window was listed', async () => {
    let driver: WindowDriver | undefined;
    let looks = 0;
    const found = await awaitWindowDriver(
      () => {
        looks += 1;
        if (looks === 3) driver = DRIVER;
        return driver;
      },
      () => true,
    );
    expect(found).toBe(DRIVER);
    expect(looks).toBe(3);
  });

  it('gives up at its deadline when no driver comes', async () => {
    expect(
      await awaitWindowDriver(
        () => undefined,
        () => true,
        60,
      ),
    ).toBeUndefined();
  });

  it('stops waiting as soon as the session has ended', async () => {
    let looks = 0;
    const found = await awaitWindowDriver(
      () => {
        looks += 1;
        return undefined;
      },
      () => looks < 2,
      60_000,
    );
    expect(found).toBeUndefined();
    expect(looks).toBe(2);
  });
});
