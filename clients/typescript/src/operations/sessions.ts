import { graphql } from '../generated/index.js';

/** Every session with what an agent checks before acting: status, transport and app. */
export const SessionsDocument = graphql(`
  query Sessions {
    sessions {
      ...SessionHeadline
    }
  }
`);

/** The active window as outline text: the cheapest faithful read of what can be acted on. */
export const OutlineDocument = graphql(`
  query Outline($session: ID, $interactiveOnly: Boolean, $budgetTokens: Int, $within: ID) {
    session(id: $session) {
      id
      activeWindow {
        id
        title
        snapshot(interactiveOnly: $interactiveOnly, budgetTokens: $budgetTokens, within: $within) {
          id
          outline
          hasMore
          endCursor
        }
      }
    }
  }
`);

/** A screenshot of a window (or one element of it), as base64. */
export const ScreenshotDocument = graphql(`
  query Screenshot($session: ID, $target: TargetInput, $format: ImageFormat, $save: Boolean) {
    session(id: $session) {
      activeWindow {
        screenshot(target: $target, format: $format, save: $save) {
          base64
          format
          width
          height
          byteLength
          path
        }
      }
    }
  }
`);
