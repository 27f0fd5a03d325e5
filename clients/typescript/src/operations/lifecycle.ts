import { graphql } from '../generated/index.js';

/** Starts an app; the session answers once its first window shows. */
export const LaunchDocument = graphql(`
  mutation Launch($input: LaunchInput!) {
    launch(input: $input) {
      ...SessionHeadline
    }
  }
`);

/** Quits an app Stagegraph started, escalating to SIGTERM and SIGKILL of its process group. */
export const StopDocument = graphql(`
  mutation Stop($id: ID, $graceMs: Int) {
    stop(id: $id, graceMs: $graceMs) {
      id
      status
    }
  }
`);
