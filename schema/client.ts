import {
  type ClientIdentity,
  type ClientRole,
  permissionsOf,
} from '../domain/governance/clients/client-identity.js';
import { builder } from './builder.js';
import { clientOf } from './context.js';

const ClientRoleEnum = builder.enumType('ClientRole', {
  description:
    "What a client's token lets it do; agent, approver and observer tokens are separate, so an agent cannot approve its own actions and a dashboard's token cannot act.",
  values: {
    AGENT: {
      value: 'agent',
      description: 'Holds an agent token (STAGEGRAPH_TOKEN): drives apps, may not answer approvals.',
    },
    APPROVER: {
      value: 'approver',
      description:
        'Holds an approver token (STAGEGRAPH_APPROVER_TOKEN): may list, watch, approve and deny approval requests; never acts.',
    },
    OBSERVER: {
      value: 'observer',
      description:
        'Holds an observer token (STAGEGRAPH_OBSERVER_TOKEN): queries and subscriptions only, the approval queue included; every mutation is refused with ROLE_FORBIDDEN.',
    },
    ANONYMOUS_LOOPBACK: {
      value: 'anonymous-loopback',
      description:
        'No token, over loopback, on a server that has no agent token (local development): drives apps, may not answer approvals.',
    },
  } as const satisfies Record<string, { value: ClientRole; description?: string }>,
});

export const ClientRef = builder.objectRef<ClientIdentity>('Client').implement({
  description: 'Who sent an operation, named by its token (never the token itself).',
  fields: (t) => ({
    id: t.exposeID('id', {
      description:
        "How the audit trail names it: the role and the first 8 hex digits of the token's SHA-256 (e.g. `agent-1a2b3c4d`), or `anonymous-loopback`. Filter on it with `AuditFilter.clientId`.",
    }),
    role: t.field({
      type: ClientRoleEnum,
      description: 'What its token lets it do.',
      resolve: (client) => client.role,
    }),
  }),
});

const ViewerRef = builder.objectRef<ClientIdentity>('Viewer').implement({
  description:
    'The client asking: who the gateway takes it for and what its token lets it do, so a UI shows only the controls that will work.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'How the audit trail names this client (never the token).' }),
    role: t.field({ type: ClientRoleEnum, description: 'Its role.', resolve: (client) => client.role }),
    mayAct: t.boolean({
      description:
        'Whether its mutations other than approve and deny can pass (policy permitting): agents and anonymous loopback clients.',
      resolve: (client) => permissionsOf(client.role).mayAct,
    }),
    mayApprove: t.boolean({
      description: 'Whether it may answer approval requests (approve, deny): approvers only.',
      resolve: (client) => permissionsOf(client.role).mayApprove,
    }),
    mayWatchApprovals: t.boolean({
      description:
        'Whether it may read pendingApprovals and subscribe to approvalRequests: approvers and observers.',
      resolve: (client) => permissionsOf(client.role).mayWatchApprovals,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: 'Who you are to this gateway and what your token lets you do.',
    resolve: (_root, _args, context) => clientOf(context),
  }),
);
