import SchemaBuilder from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import type { GatewayContext } from './context.js';
import './gates/capability-gate.js';
import './gates/eval-scope.js';
import './gates/governance.js';
import './gates/remote-session.js';
import './gates/steps.js';
import './plugins/plugin-fields-gate.js';

/**
 * The gates are plugins reading what each field declares (schema/gates/field-options.ts). Their order
 * matters: resolvers are wrapped from the last plugin to the first, so the steps of a multi-step operation
 * are outermost (a skipped step reaches nothing else), then governance, which records even a capability
 * refusal; the capability gate adds its directive before the eval scope keeps the types
 * the schema reaches; pluginFields leaves out the fields of plugins the schema is not built with; remoteSession refuses
 * what only the owner of another replica's session knows, before the capability gate looks for it here; the
 * directives plugin, first, turns the directives it is handed into SDL.
 */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [
    DirectivePlugin,
    'steps',
    'governance',
    'evalScope',
    'pluginFields',
    'remoteSession',
    'capabilityGate',
  ],
  directives: { useGraphQLToolsUnorderedDirectives: true },
  defaultFieldNullability: false,
});

builder.scalarType('DateTime', {
  description: 'An instant as an ISO-8601 string in UTC.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError(`Not an ISO-8601 date: ${String(value)}`);
    return date;
  },
});

builder.queryType({
  description: 'Reads: sessions, their windows and buffers, transports and the error registry.',
});
builder.mutationType({
  description:
    'Actions: launch, stop and drive apps. Each field of a mutation operation is a step, run in order: every step keeps its outcome in `data` (its field is null when it failed, its error at its path), and after a failed step the later ones do not run and fail with STEP_SKIPPED — except approve, deny, stop, forceKill and detach, which always run.',
});
builder.subscriptionType({
  description: 'Live streams for observers; each subscriber has its own bounded queue.',
});
