import SchemaBuilder from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import type { GatewayContext } from './context.js';
import './gates/capability-gate.js';
import './gates/eval-scope.js';
import './gates/governance.js';

/**
 * The gates are plugins reading what each field declares (schema/gates/field-options.ts). Their order
 * matters: resolvers are wrapped from the last plugin to the first, so governance is outermost and records
 * even a capability refusal; the capability gate adds its directive before the eval scope keeps the types
 * the schema reaches; the directives plugin, first, turns the directives it is handed into SDL.
 */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date } };
}>({
  plugins: [DirectivePlugin, 'governance', 'evalScope', 'capabilityGate'],
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
builder.mutationType({ description: 'Actions: launch, stop and drive apps.' });
builder.subscriptionType({
  description: 'Live streams for observers; each subscriber has its own bounded queue.',
});
