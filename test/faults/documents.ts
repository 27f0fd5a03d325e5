import { fileURLToPath } from 'node:url';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import type { Loose } from '../helpers/gateway-client.js';

/** Every lifecycle event of one session (or of all, without `session`), as an observer holds it open. */
export const SESSION_EVENTS = parse(
  'subscription ($session: ID) { sessionEvents(session: $session) { type sessionId status window { id } exit { code signal } } }',
) as TypedDocumentNode<Loose, { session?: string }>;

/** What another client asks to see the gateway still answers: a list read and a static one. */
export const STILL_ANSWERING = '{ sessions { id status } errorCodes { code } }';

export const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id status pid } }';

/** An inline operation for the graphql-ws helpers, read as loosely as the HTTP ones. */
export function parseLoose(query: string): TypedDocumentNode<Loose, Record<string, unknown>> {
  return parse(query) as TypedDocumentNode<Loose, Record<string, unknown>>;
}

/** A loaded machine may take this long to start the stand-in and its Chromium; a safety net, not a target. */
export const LAUNCH_TIMEOUT_MS = 120_000;

/** The policy that approves everything, so a fault test's risky operations run without an approver. */
export const UNATTENDED_POLICY = fileURLToPath(
  new URL('../../fixtures/policies/unattended.yaml', import.meta.url),
);
