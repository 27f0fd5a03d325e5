import type { Transport } from '../transports/contract/transport-contract.js';
import { builder } from './builder.js';
import { CapabilitiesRef } from './capability.js';

export const TransportRef = builder.objectRef<Transport>('Transport').implement({
  description: 'A way of reaching apps, with the capabilities it really has.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description:
        'playwright-electron (launch), cdp (attach, launchCommand), inspector (inject) or atspi (launchDesktop, attachDesktop, desktopApps).',
    }),
    description: t.exposeString('description', { description: 'What it reaches, and how, in a sentence.' }),
    capabilities: t.field({
      type: CapabilitiesRef,
      description: 'What it can do at best; a session on it may say less (`Session.capabilities`).',
      resolve: (transport) => transport.capabilities,
    }),
  }),
});

builder.queryField('transports', (t) =>
  t.field({
    type: [TransportRef],
    description: 'Every transport this server offers, with its capability matrix.',
    resolve: (_root, _args, { sessions }) => sessions.transports(),
  }),
);
