import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument, StopDocument } from './generated/graphql.js';
import { ELECTRON_TARGETS, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { expectGroupsGone } from './helpers/processes.js';

const IDENTITY_APP = fileURLToPath(new URL('../fixtures/identity-app', import.meta.url));

interface Identity {
  name: string;
  version: string;
  userData: string;
  appPath: string;
  executableVersion: string;
}

/** The same app script as the index.js of a folder with no package.json: Electron's defaults all the way. */
function bareCopy(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'stagegraph-bare-app-')));
  copyFileSync(join(IDENTITY_APP, 'main.js'), join(folder, 'index.js'));
  return folder;
}

// instrumentNative preloads the native hooks; the app must not be able to tell. Each entry is launched
// with and without it, and the app's own reading of its identity compared — and checked against what
// Electron's default app sets for that entry (a folder's package.json, else Electron's own name and version).
for (const target of ELECTRON_TARGETS) {
  describe(`the app's identity under instrumentNative on ${target.name}`, () => {
    let gateway: RunningGateway;
    let api: GatewayClient;
    const scratch = mkdtempSync(join(tmpdir(), 'stagegraph-identity-'));

    beforeAll(async () => {
      gateway = await startGateway({ artifactsDir: join(scratch, 'artifacts') });
      api = gatewayClient(gateway.url);
    });
    afterAll(() => gateway?.stop());

    /** Launches `main`, reads the identity the app wrote, and stops it. */
    async function identityOf(main: string, instrumentNative: boolean): Promise<Identity> {
      const out = join(scratch, `${basename(main)}-${instrumentNative}-${Date.now()}.json`);
      const { launch } = await api.data(LaunchDocument, {
        input: {
          main,
          executablePath: target.executablePath,
          instrumentNative,
          env: [{ name: 'IDENTITY_OUT', value: out }],
        },
      });
      await expect.poll(() => existsSync(out), { timeout: 30_000 }).toBe(true);
      await api.data(StopDocument, { id: launch!.id });
      await expectGroupsGone([launch!.pid!]);
      return JSON.parse(readFileSync(out, 'utf8')) as Identity;
    }

    async function plainAndInstrumented(main: string): Promise<Identity> {
      const plain = await identityOf(main, false);
      expect(await identityOf(main, true)).toEqual(plain);
      return plain;
    }

    it("is package.json's (productName over name, version) for the app folder, whose path is the app path", async () => {
      const identity = await plainAndInstrumented(IDENTITY_APP);
      expect(identity).toMatchObject({ name: 'Identity Fixture', version: '2.3.4', appPath: IDENTITY_APP });
      expect(basename(identity.userData)).toBe('Identity Fixture');
    });

    it("is Electron's own name and version for a script, even beside a package.json", async () => {
      const identity = await plainAndInstrumented(join(IDENTITY_APP, 'main.js'));
      expect(identity).toMatchObject({
        name: 'Electron',
        version: identity.executableVersion,
        appPath: realpathSync(IDENTITY_APP),
      });
      expect(basename(identity.userData)).toBe('Electron');
    });

    it("is Electron's defaults for an app with no package.json, and userData shared with other apps' appData", async () => {
      const folder = bareCopy();
      const identity = await plainAndInstrumented(folder);
      expect(identity).toMatchObject({
        name: 'Electron',
        version: identity.executableVersion,
        appPath: folder,
      });
      expect(identity.userData).toBe(join(dirname(identity.userData), 'Electron'));
      const packaged = await identityOf(IDENTITY_APP, false);
      expect(dirname(packaged.userData)).toBe(dirname(identity.userData));
    });
  });
}

reportRealElectronSkipped("the app's identity under instrumentNative");
