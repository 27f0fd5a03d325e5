import SchemaBuilder from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import type { Capability } from '../transports/contract/capabilities.js';
import type { GatewayContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  DefaultFieldNullability: false;
  Scalars: { DateTime: { Input: Date; Output: Date } };
  Directives: {
    requiresCapability: { locations: 'FIELD_DEFINITION'; args: { capability: Capability } };
  };
}>({
  plugins: [DirectivePlugin],
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
