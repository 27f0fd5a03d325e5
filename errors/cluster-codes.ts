import type { ErrorCodeInfo } from './error-code-info.js';

/**
 * The registry's codes for cluster mode (`serve --cluster`): a session's owner replica is gone, the shared
 * Redis cannot be reached, or this replica lost its lease. Part of ERROR_CODES (registry.ts), kept apart so
 * that table stays readable.
 */
export const CLUSTER_ERROR_CODES = {
  SESSION_LOST: {
    meaning:
      "The session's owner replica lost its lease (it was killed, paused or cut off) or restarted, so the app it drove is out of reach; `details.replica` names the owner. The session stays listed as LOST.",
    retryable: false,
    hint: 'Launch or attach a new session (on a live replica: `replicas { id status }`); a LOST session never comes back, even when its replica does.',
  },
  SESSION_REMOTE: {
    meaning:
      'The session is live but owned by another replica (`details.replica`, `details.url`), and this call was not sent there: it also named sessions of other replicas, reached the session through `sessions`, was a subscription or came over the WebSocket, or the owner did not answer.',
    retryable: false,
    hint: "Send the operation to the owner's URL in `details.url` (`replicas { id url }` lists them).",
  },
  CLUSTER_UNAVAILABLE: {
    meaning:
      "The cluster's Redis did not answer in time (stopped, unreachable, or this replica is still joining), so a cluster-wide read or a new session could not be registered. Sessions this replica owns keep working.",
    retryable: true,
    hint: 'Retry in a few seconds; if it persists, check that the Redis named by --cluster is running and reachable from this host.',
  },
  REPLICA_FENCED: {
    meaning:
      'This replica lost its lease (it was paused or cut off from Redis past the lease time) and another replica marked its sessions LOST, so it accepts no cluster work until it is restarted.',
    retryable: false,
    hint: 'Send the operation to a live replica (`replicas { id url status }`), and restart this one: it rejoins with a new epoch.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;
