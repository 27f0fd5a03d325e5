import { graphql } from '../generated/index.js';

/** Console entries as they are logged, optionally only those containing a text. */
export const ConsoleEventsDocument = graphql(`
  subscription ConsoleEvents($session: ID, $textContains: String, $replay: Boolean) {
    console(session: $session, textContains: $textContains, replay: $replay) {
      droppedBefore
      entry {
        seq
        sessionId
        type
        text
        time
      }
    }
  }
`);

/** Session lifecycle: windows opened and closed, crashes, exits, stops. */
export const SessionEventsDocument = graphql(`
  subscription SessionEvents($session: ID) {
    sessionEvents(session: $session) {
      droppedBefore
      sessionId
      type
      status
      time
    }
  }
`);
