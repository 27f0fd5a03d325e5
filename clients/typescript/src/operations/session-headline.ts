import { graphql } from '../generated/index.js';

/** What an agent checks about a session before acting on it: its status, transport and app. */
export const SessionHeadlineFragment = graphql(`
  fragment SessionHeadline on Session {
    id
    status
    transport
    app {
      name
      standIn
    }
  }
`);
