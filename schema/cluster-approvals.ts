import { ApprovalRequestRef } from './approvals.js';
import { builder } from './builder.js';
import { ReplicaRef, replicaNamed } from './cluster.js';

builder.objectField(ApprovalRequestRef, 'replica', (t) =>
  t.field({
    type: ReplicaRef,
    nullable: true,
    description:
      'The replica whose operation waits for the answer (cluster mode); an approver on any replica sees the request and may answer it there. Null for a gateway started without --cluster.',
    resolve: (request, _args, { cluster }) =>
      cluster ? replicaNamed(request.replicaId ?? cluster.replicaId, cluster) : null,
  }),
);
