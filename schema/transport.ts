import type { Transport } from '../transports/contract.js';
import { builder } from './builder.js';
import { CapabilitiesRef } from './capability.js';

export const TransportRef = builder.objectRef<Transport>('Transport').implement({
  description: 'A way of reaching apps, with the capabilities it really has.',
  fields: (t) => ({
    id: t.exposeString('id'),
    description: t.exposeString('description'),
    capabilities: t.field({ type: CapabilitiesRef, resolve: (transport) => transport.capabilities }),
  }),
});

builder.queryField('transports', (t) =>
  t.field({
    type: [TransportRef],
    description: 'Every transport this server offers, with its capability matrix.',
    resolve: (_root, _args, { sessions }) => sessions.transports(),
  }),
);
