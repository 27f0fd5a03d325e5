import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import type { GatewayContext } from './context.js';

/** What `cursor` says, on every event a session's stream carries across replicas. */
export const CURSOR = {
  nullable: true,
  description:
    "With `serve --cluster`: where this event sits in its session's stream; pass it as `after` to resume just after it, on this replica or another. Null without a cluster, and for an event not kept in a stream.",
} as const;

/** What `after` says, on every subscription that can resume from a cursor. */
export const AFTER = {
  required: false,
  description:
    "With `serve --cluster` and `session`: deliver the events after this `cursor` first (from the session's stream, on any replica), then live ones. Events the stream no longer holds are counted in the first delivery's `droppedBefore`. Without a cluster: BAD_INPUT.",
} as const;

export const DROPPED_BEFORE = {
  description:
    "Events this subscriber lost just before this one: it read too slowly, or (reading a session's stream in a cluster) the stream had trimmed them or never got them while Redis was out.",
} as const;

/** A stream reader's delivery carries its cursor; a local one is numbered by this replica's stream writer. */
export function cursorOf(delivery: CursoredDelivery<object>, context: GatewayContext): string | null {
  return delivery.cursor ?? context.clusterEvents?.cursorOf(delivery.event) ?? null;
}
