import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { StagegraphPlugin } from './plugin-api.js';

/**
 * Imports the plugin modules named with `--plugin`, in order: exactly these, never a scanned folder. A
 * path (`./plugins/trace/index.ts`, absolute or relative to `cwd`) is imported as a file, anything else as
 * a package. A module that is missing, throws while loading, or exports no plugin fails with PLUGIN_FAILED
 * naming it, before the schema is built.
 */
export async function loadPlugins(
  specifiers: readonly string[],
  cwd: string = process.cwd(),
): Promise<StagegraphPlugin[]> {
  const plugins: StagegraphPlugin[] = [];
  for (const specifier of specifiers) {
    let module: { default?: unknown };
    try {
      module = (await import(importable(specifier, cwd))) as { default?: unknown };
    } catch (error) {
      throw new StagegraphError(
        'PLUGIN_FAILED',
        `Plugin module "${specifier}" could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        { details: { module: specifier }, cause: error },
      );
    }
    if (!isPlugin(module.default))
      throw new StagegraphError(
        'PLUGIN_FAILED',
        `Plugin module "${specifier}" has no plugin as its default export: it must \`export default definePlugin({ name, register })\`.`,
        { details: { module: specifier } },
      );
    plugins.push(module.default);
  }
  return plugins;
}

function importable(specifier: string, cwd: string): string {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  return isPath ? pathToFileURL(resolve(cwd, specifier)).href : specifier;
}

function isPlugin(value: unknown): value is StagegraphPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<StagegraphPlugin>;
  return typeof candidate.name === 'string' && typeof candidate.register === 'function';
}
