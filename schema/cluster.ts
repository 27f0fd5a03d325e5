import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { RemoteSession } from '../domain/cluster/remote-session.js';
import type { Session } from '../domain/sessions/session.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

type Listed = Session | RemoteSession;

const ReplicaStatusEnum = builder.enumType('ReplicaStatus', {
  description: 'Where a replica is in the cluster, as its lease in Redis says.',
  values: {
    UP: { description: 'Its lease holds: it renews it every --cluster-renew.' },
    DOWN: {
      description:
        'Its lease expired (killed, paused or cut off from Redis) and a reaper marked its live sessions LOST; a restart with the same id joins with a new epoch.',
    },
    LEFT: { description: 'It shut down cleanly; its sessions ended with it.' },
  } as const,
});

export const ReplicaRef = builder.objectRef<ReplicaRecord & { self: boolean }>('Replica').implement({
  description: 'One gateway process of a cluster (`serve --cluster`), owning the apps on its host.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its --replica-id; its session ids start with it (`<id>-s1`).' }),
    url: t.exposeString('url', {
      description: 'Its GraphQL endpoint as it advertises it (--advertise-url, else the URL it serves at).',
    }),
    status: t.field({
      type: ReplicaStatusEnum,
      description: 'UP, DOWN or LEFT.',
      resolve: (replica) => replica.status,
    }),
    epoch: t.exposeInt('epoch', {
      description: 'Its boot number: raised at every start; a session belongs to one boot.',
    }),
    sessions: t.exposeInt('sessions', { description: 'Its live sessions at its last renewal.' }),
    lastSeen: t.field({
      type: 'DateTime',
      description: 'Its last lease renewal.',
      resolve: (replica) => replica.lastSeen,
    }),
    self: t.exposeBoolean('self', { description: 'True for the replica that answered this query.' }),
  }),
});

builder.queryField('replicas', (t) =>
  t.field({
    type: [ReplicaRef],
    description:
      'Every replica of the cluster, the one answering first, with its lease status; empty for a gateway started without --cluster. CLUSTER_UNAVAILABLE while Redis does not answer.',
    resolve: async (_root, _args, { cluster }) =>
      cluster ? (await cluster.replicas()).map((replica) => withSelf(replica, cluster)) : [],
  }),
);

builder.objectField(SessionRef, 'replica', (t) =>
  t.field({
    type: ReplicaRef,
    nullable: true,
    description:
      'The replica that owns the session (cluster mode); null for a gateway started without --cluster.',
    resolve: (session, _args, { cluster }) => (cluster ? ownerOf(session as Listed, cluster) : null),
  }),
);

function ownerOf(session: Listed, cluster: Cluster) {
  return replicaNamed(session instanceof RemoteSession ? session.replicaId : cluster.replicaId, cluster);
}

/** The replica `id` as of the last lease tick, else as the store has it now; null when it knows none. */
export async function replicaNamed(id: string, cluster: Cluster) {
  const replica = cluster.replica(id) ?? (await cluster.replicas()).find((record) => record.id === id);
  return replica ? withSelf(replica, cluster) : null;
}

function withSelf(replica: ReplicaRecord, cluster: Cluster) {
  return { ...replica, self: replica.id === cluster.replicaId };
}
