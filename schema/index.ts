import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { enforceCapabilities } from './capability.js';
import './actions.js';
import './clock.js';
import './console.js';
import './dialogs.js';
import './error-code.js';
import './expect.js';
import './network.js';
import './screenshot.js';
import './session-events.js';
import './session.js';
import './snapshot.js';
import './snapshot-changes.js';
import './storage.js';
import './transport.js';
import './window.js';

/** The whole API. Capability gating is applied here, once, to every field that declares one. */
export function buildSchema(): GraphQLSchema {
  return enforceCapabilities(builder.toSchema({ sortSchema: true }));
}
