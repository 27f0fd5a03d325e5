/** The extension key the graphql-ws server reads to share a subscription's per-event execution. */
export const SHARED_EXECUTION = 'sharedExecution';

/**
 * Field options for a subscription whose selection reads only its event and its arguments, never live
 * state: the server may execute it once per event for every subscriber with the same document, variables
 * and client, and send each of them that one result (each subscriber still has its own stream, filters
 * and `droppedBefore`).
 */
export const sharesExecutionPerEvent = { extensions: { [SHARED_EXECUTION]: true } } as const;
