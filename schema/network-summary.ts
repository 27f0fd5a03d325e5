import { redactUrl } from '../domain/governance/redaction/redaction-network.js';
import type { NetworkProblem, NetworkProblemRead } from '../transports/contract/renderer-control.js';
import { builder } from './builder.js';
import { redactorOf } from './reveal.js';
import { SessionRef } from './session.js';

const NetworkProblemRef = builder.objectRef<NetworkProblem>('NetworkProblem').implement({
  description: 'A request that failed, or was answered with status >= 400.',
  fields: (t) => ({
    time: t.field({
      type: 'DateTime',
      description: 'When the gateway heard of the failure or the response.',
      resolve: (problem) => problem.time,
    }),
    windowId: t.exposeID('windowId', {
      nullable: true,
      description:
        "The window whose page made the request; null when it is not one of the session's windows.",
    }),
    method: t.exposeString('method', { description: 'The HTTP method; empty when the failure named none.' }),
    url: t.string({
      description:
        'The URL requested, with secret-named query parameters and its password as `[redacted]`, scrubbed by pattern.',
      resolve: (problem, _args, context) => redactUrl(problem.url, redactorOf(context)),
    }),
    resourceType: t.exposeString('resourceType', {
      description: 'document, fetch, xhr, script, stylesheet, image, ... (lower-case).',
    }),
    status: t.exposeInt('status', {
      nullable: true,
      description: 'The response status (>= 400); null for a request that got no response.',
    }),
    failure: t.exposeString('failure', {
      nullable: true,
      description: "The network error, in the browser's words (net::ERR_…); null when a response arrived.",
    }),
  }),
});

interface SummaryView {
  readonly since: Date | null;
  readonly read: NetworkProblemRead;
}

const NetworkSummaryRef = builder.objectRef<SummaryView>('NetworkSummary').implement({
  description:
    "What went wrong on a session's network, recorded always — no capture needs to be armed first. The newest 200 problems are kept.",
  fields: (t) => ({
    since: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The time asked for; null when every problem kept is listed.',
      resolve: (view) => view.since,
    }),
    failed: t.field({
      type: [NetworkProblemRef],
      description: 'Requests that got no response (refused, aborted, blocked, DNS, ...), oldest first.',
      resolve: (view) => view.read.problems.filter((problem) => problem.failure !== null),
    }),
    errorResponses: t.field({
      type: [NetworkProblemRef],
      description: 'Responses with status >= 400, oldest first.',
      resolve: (view) => view.read.problems.filter((problem) => problem.status !== null),
    }),
    overflowed: t.int({
      description:
        'Problems pushed out of the record since the session began (at any time, not only since `since`).',
      resolve: (view) => view.read.overflowed,
    }),
  }),
});

builder.objectField(SessionRef, 'networkSummary', (t) =>
  t.field({
    type: NetworkSummaryRef,
    description:
      'Failed requests and responses with status >= 400 of every window, without arming a capture: the first thing to read when a page shows an error or stays empty.',
    requiresCapability: 'INTERCEPT',
    args: {
      since: t.arg({
        type: 'DateTime',
        required: false,
        description:
          'Only problems from this time on (e.g. the `takenAt` of a snapshot); all kept when left out.',
      }),
    },
    resolve: (session, args) => ({
      since: args.since ?? null,
      read: session.pageState.network.problems(args.since ?? null),
    }),
  }),
);
