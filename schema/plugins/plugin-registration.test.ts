import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caught } from '../../test/helpers/caught.js';
import { buildSchema } from '../index.js';
import { loadPlugins } from './plugin-loader.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/plugins/', import.meta.url));

// Its own file: the refused plugin's field stays in this process's builder, so no later build would pass.
describe('plugin registration', () => {
  it('refuses a plugin mutation without governance, naming the plugin and the field', async () => {
    const plugins = await loadPlugins(['./ungoverned.ts'], FIXTURES);
    const error = caught(() => buildSchema({ allowEval: 'none', plugins }));
    expect(error).toMatchObject({ code: 'PLUGIN_FAILED', details: { plugin: 'loose' } });
    expect(error.message).toMatch(/Plugin "loose" .*Mutation\.looseAct declares no governance/);
  });
});
