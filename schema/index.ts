import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { enforceCapabilities } from './capability.js';
import { enforceGovernance } from './governance.js';
import './actions.js';
import './approvals.js';
import './audit.js';
import './clock.js';
import './console.js';
import './dialogs.js';
import './error-code.js';
import './expect.js';
import './network.js';
import './policy.js';
import './screenshot.js';
import './session-events.js';
import './session.js';
import './snapshot.js';
import './snapshot-changes.js';
import './storage.js';
import './transport.js';
import './window.js';

/**
 * The whole API. Applied here, once, to the built schema: capability gating to every field that declares
 * one, and — outermost — the governance chokepoint to every mutation.
 */
export function buildSchema(): GraphQLSchema {
  return enforceGovernance(enforceCapabilities(builder.toSchema({ sortSchema: true })));
}
