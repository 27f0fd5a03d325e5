import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caught } from '../../test/helpers/caught.js';
import { buildSchema } from '../index.js';
import { loadPlugins } from './plugin-loader.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/plugins/', import.meta.url));

describe('plugin loader', () => {
  it('loads exactly the modules named, by path relative to the working directory', async () => {
    const [probe] = await loadPlugins(['./probe.ts'], FIXTURES);
    expect(probe?.name).toBe('probe');
  });

  it.each([
    ['a missing module', './absent-plugin.ts', /Plugin module "\.\/absent-plugin\.ts" could not be loaded/],
    [
      'a module that throws',
      './throws-on-load.ts',
      /"\.\/throws-on-load\.ts" could not be loaded: .*broken on purpose/,
    ],
    [
      'a module without a plugin',
      './no-default.ts',
      /"\.\/no-default\.ts" has no plugin as its default export/,
    ],
    [
      'a package that is not installed',
      'stagegraph-plugin-absent',
      /"stagegraph-plugin-absent" could not be loaded/,
    ],
  ])('fails on %s with PLUGIN_FAILED naming it', async (_case, specifier, message) => {
    const error: unknown = await loadPlugins([specifier], FIXTURES).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'PLUGIN_FAILED', details: { module: specifier } });
    expect((error as Error).message).toMatch(message);
  });

  it("adds a plugin's fields to the schemas built with it, governed, and to no other", async () => {
    const plugins = await loadPlugins(['./probe.ts'], FIXTURES);
    const withProbe = buildSchema({ allowEval: 'none', plugins });
    const field = withProbe.getMutationType()?.getFields().probePing;
    expect(field?.extensions?.pothosOptions).toMatchObject({ governance: { session: 'session' } });
    expect(buildSchema().getMutationType()?.getFields().probePing).toBeUndefined();
    // Registered once per process: a second gateway with the same plugin builds the same schema.
    expect(
      buildSchema({ allowEval: 'none', plugins }).getMutationType()?.getFields().probePing,
    ).toBeDefined();
  });

  it('refuses a plugin name that is not one lowercase word', async () => {
    const error = caught(() =>
      buildSchema({ allowEval: 'none', plugins: [{ name: 'Bad-Name', register: () => {} }] }),
    );
    expect(error).toMatchObject({ code: 'PLUGIN_FAILED' });
    expect(error.message).toMatch(/Plugin "Bad-Name" .*one lowercase word/);
  });

  it('refuses a field outside the namespace, naming it (last: the stray field stays in the builder)', async () => {
    const plugins = await loadPlugins(['./stray.ts'], FIXTURES);
    const error = caught(() => buildSchema({ allowEval: 'none', plugins }));
    expect(error).toMatchObject({ code: 'PLUGIN_FAILED', details: { plugin: 'stray' } });
    expect(error.message).toMatch(/Query\.hijacked lies outside its namespace/);
  });
});
