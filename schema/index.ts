import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import type { EvalScope } from './gates/field-options.js';
import type { StagegraphPlugin } from './plugins/plugin-api.js';
import { registerPlugins } from './plugins/plugin-registration.js';
import './actions.js';
import './approvals.js';
import './artifacts.js';
import './attach.js';
import './audit.js';
import './audit-verification.js';
import './client.js';
import './clock.js';
import './cluster.js';
import './cluster-approvals.js';
import './cluster-audit-verification.js';
import './console.js';
import './desktop.js';
import './dialogs.js';
import './error-code.js';
import './eval.js';
import './expect.js';
import './ipc.js';
import './menu.js';
import './navigation.js';
import './native-dialogs.js';
import './network.js';
import './network-stubs.js';
import './network-summary.js';
import './notifications.js';
import './page-source.js';
import './policy.js';
import './screencast.js';
import './screenshot.js';
import './selector-hints.js';
import './session-events.js';
import './session-figures.js';
import './session.js';
import './snapshot.js';
import './snapshot-diff.js';
import './snapshot-changes.js';
import './storage.js';
import './transport.js';
import './text-index.js';
import './tray.js';
import './vision-figures.js';
import './window.js';

export interface SchemaOptions {
  /** The server's `--allow-eval` scope; eval fields outside it are absent from the schema. */
  readonly allowEval: EvalScope;
  /** The plugins loaded with `--plugin` (schema/plugins/): their fields are added, through the same gates. */
  readonly plugins?: readonly StagegraphPlugin[];
}

/**
 * The whole API, gated as its fields declare (schema/gates/), for one eval scope and its plugins; a plugin
 * that cannot be registered fails with PLUGIN_FAILED.
 */
export function buildSchema(options: SchemaOptions = { allowEval: 'none' }): GraphQLSchema {
  const plugins = registerPlugins(options.plugins ?? []);
  return builder.toSchema({ sortSchema: true, allowEval: options.allowEval, plugins });
}
