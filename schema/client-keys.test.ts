import { describe, expect, it } from 'vitest';
import { EventHub } from '../domain/events/event-hub.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { clientKeys } from './client-keys.js';
import type { GatewayContext } from './context.js';

const agent: ClientIdentity = { id: 'agent-1', role: 'agent' };

describe('clientKeys', () => {
  const socket = {};
  const of = (context: { client: ClientIdentity; socket?: object }) =>
    clientKeys({ hub: new EventHub(), ...context } as unknown as GatewayContext);
  it('a graphql-ws operation belongs to its connection, and to its token when it has one', () => {
    expect(of({ client: ANONYMOUS_LOOPBACK, socket })).toEqual([socket]);
    expect(of({ client: agent, socket })).toEqual([socket, 'agent-1']);
  });

  it('an HTTP operation (an SSE stream) belongs to its token; anonymous ones share one key', () => {
    expect(of({ client: agent })).toEqual(['agent-1']);
    expect(of({ client: ANONYMOUS_LOOPBACK })).toEqual(['anonymous-loopback']);
  });
});
