import { graphqlString } from '../sessions/graphql-string.js';

/**
 * What an error about a session's page state (clock, cookies and storage, network capture and stubs)
 * offers next, built from the session's id and what it really has open. test/next-actions.test.ts
 * validates each against the schema.
 */
export const pageStateActions = {
  installClock: (sessionId: string) =>
    `mutation { installClock(session: ${graphqlString(sessionId)}) { installed now paused } }`,
  storageOrigins: (sessionId: string) =>
    `query { session(id: ${graphqlString(sessionId)}) { storageOrigins } }`,
  /** The keys of one origin's local storage: an origin some window of the session has open. */
  localStorageKeys: (sessionId: string, origin: string) =>
    `query { session(id: ${graphqlString(sessionId)}) { storage(origin: ${graphqlString(origin)}) { localStorage { key } } } }`,
  networkCaptures: (sessionId: string) =>
    `query { session(id: ${graphqlString(sessionId)}) { networkCaptures { id filter { urlPatterns } } } }`,
  networkStubs: (sessionId: string) =>
    `query { session(id: ${graphqlString(sessionId)}) { networkStubs { id pattern hits active } } }`,
} as const;
