import type { ArgBuilder } from '@pothos/core';
import type { CursoredDelivery } from '../domain/cluster/stream-feed.js';
import { TOPIC_FEEDS, topicFeed } from '../domain/cluster/topic-feeds.js';
import { clearHeaders, redactedNetworkParts } from '../domain/governance/redaction/redaction-network.js';
import { MAX_CAPTURES, type NetworkCapture, type NetworkRead } from '../domain/page-state/network.js';
import type { NetworkEntry } from '../domain/page-state/network-log.js';
import type { NetworkBody } from '../transports/contract/renderer-control.js';
import { builder } from './builder.js';
import { redactorOf, revealFor, shownUrl } from './reveal.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';
import { AFTER, CURSOR, cursorOf, DROPPED_BEFORE } from './stream-cursor.js';

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** The filters Session.network and Subscription.network share, so a recorded entry is picked alike by both. */
function entryFilterArgs(arg: ArgBuilder<BuilderTypes>) {
  return {
    urlContains: arg.string({
      required: false,
      description:
        'Only URLs containing this text, as this reader is shown the URL (redacted unless an agent).',
    }),
    methods: arg.stringList({
      required: false,
      description: 'Only these HTTP methods, upper-case as recorded (GET, POST, ...).',
    }),
    resourceTypes: arg.stringList({
      required: false,
      description: 'Only these resource types (document, fetch, xhr, image, script, ...).',
    }),
    windowId: arg.id({
      required: false,
      description: "Only requests of this window's page (`w1`, ...).",
    }),
    failedOnly: arg.boolean({
      required: false,
      description: 'Only requests that failed (with `failure`).',
    }),
  };
}

const HeaderRef = builder.objectRef<{ name: string; value: string }>('Header').implement({
  description: 'One HTTP header of a recorded request or response.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The header name, lower-cased.' }),
    value: t.exposeString('value', {
      description:
        "The header's value: `[redacted]` for credential-named headers (authorization, cookie, x-api-key, any name holding auth, token, secret, key, session, password, signature, ...), URL-valued ones redacted as URLs, the rest scrubbed by the policy's patterns; in clear only when an agent reads with `reveal: true`.",
    }),
  }),
});

const BodyEncodingEnum = builder.enumType('BodyEncoding', {
  values: {
    TEXT: { description: '`data` is the body as UTF-8 text.' },
    BASE64: { description: '`data` is the body base64-encoded (kept only with `binaryBodies: true`).' },
  } as const,
  description: 'TEXT for text content types (UTF-8); BASE64 for anything else.',
});

const NetworkBodyRef = builder.objectRef<NetworkBody>('NetworkBody').implement({
  description:
    "A request or response body kept by a capture armed with `bodies: true`, cut at the capture's `maxBodyBytes`.",
  fields: (t) => ({
    encoding: t.field({
      type: BodyEncodingEnum,
      description: 'How `data` is encoded: TEXT or BASE64.',
      resolve: (body) => body.encoding,
    }),
    data: t.exposeString('data', { description: 'The kept bytes of the body, encoded as `encoding` says.' }),
    size: t.exposeInt('size', { description: 'Full size in bytes, before truncation.' }),
    truncated: t.exposeBoolean('truncated', {
      description:
        "True when the body was longer than the capture's `maxBodyBytes` and `data` holds only the start.",
    }),
  }),
});

/** Every part of a request that can carry a secret takes `reveal`; its refusal names what was asked. */
const REVEAL_DESCRIPTION =
  "Show it as captured, in clear (default false). Only an agent's token may, under a policy whose `reveal` is AGENT (the default); any other role gets REVEAL_FORBIDDEN.";

const NetworkEntryRef = builder.objectRef<NetworkEntry>('NetworkEntry').implement({
  description:
    'One finished or failed request of a renderer. Its URL, headers and bodies are redacted for every reader unless an agent asks with `reveal: true`.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing: resume with `afterSeq`.' }),
    sessionId: t.exposeID('sessionId', { description: 'The session whose renderer made the request.' }),
    time: t.field({
      type: 'DateTime',
      description: 'When the request finished (or failed) and was recorded.',
      resolve: (entry) => entry.time,
    }),
    windowId: t.exposeID('windowId', {
      nullable: true,
      description: 'The window (`w1`, ...) whose page made the request; null when it is not known.',
    }),
    method: t.exposeString('method', { description: 'The HTTP method, upper-case (GET, POST, ...).' }),
    url: t.string({
      description:
        'The full request URL, with its password and the values of secret-named query and fragment parameters (`session_token`, `api_key`, `sig`, ...) as `[redacted]`, scrubbed by pattern.',
      args: { reveal: t.arg.boolean({ required: false, description: REVEAL_DESCRIPTION }) },
      resolve: (entry, args, context) =>
        revealFor(context, args.reveal, 'request URLs')
          ? entry.url
          : redactedNetworkParts(entry, redactorOf(context)).url,
    }),
    resourceType: t.exposeString('resourceType', { description: 'document, fetch, xhr, image, script, ...' }),
    status: t.exposeInt('status', { nullable: true, description: 'Null when no response arrived.' }),
    requestHeaders: t.field({
      type: [HeaderRef],
      description:
        'The request headers, redacted as `Header.value` says unless an agent asks with `reveal: true`.',
      args: { reveal: t.arg.boolean({ required: false, description: REVEAL_DESCRIPTION }) },
      resolve: (entry, args, context) =>
        revealFor(context, args.reveal, 'request headers')
          ? clearHeaders(entry.requestHeaders)
          : redactedNetworkParts(entry, redactorOf(context)).requestHeaders,
    }),
    responseHeaders: t.field({
      type: [HeaderRef],
      description:
        'The response headers, redacted as `Header.value` says unless an agent asks with `reveal: true`.',
      args: { reveal: t.arg.boolean({ required: false, description: REVEAL_DESCRIPTION }) },
      resolve: (entry, args, context) =>
        revealFor(context, args.reveal, 'response headers')
          ? clearHeaders(entry.responseHeaders)
          : redactedNetworkParts(entry, redactorOf(context)).responseHeaders,
    }),
    durationMs: t.exposeInt('durationMs', {
      nullable: true,
      description: 'Milliseconds from request start to response end (or failure); null when not measured.',
    }),
    failure: t.exposeString('failure', {
      nullable: true,
      description: "Chromium's error text, when it failed.",
    }),
    stubId: t.exposeID('stubId', { nullable: true, description: 'The stub that answered it, if one did.' }),
    requestBody: t.field({
      type: NetworkBodyRef,
      nullable: true,
      description:
        'The request body; null unless a capture wanting it had `bodies: true` (non-text bodies also need `binaryBodies`), or when empty. Redacted unless an agent asks with `reveal: true`: JSON and form-encoded bodies with secret-named fields as `[redacted]` and pattern matches (card numbers, JWTs, e-mail addresses, ...) replaced; other text scrubbed by pattern; multipart, binary and unparseable JSON bodies named, not shown.',
      args: { reveal: t.arg.boolean({ required: false, description: REVEAL_DESCRIPTION }) },
      resolve: (entry, args, context) =>
        revealFor(context, args.reveal, 'request bodies')
          ? entry.requestBody
          : redactedNetworkParts(entry, redactorOf(context)).requestBody,
    }),
    responseBody: t.field({
      type: NetworkBodyRef,
      nullable: true,
      description:
        'The response body; null unless a capture wanting it had `bodies: true` (non-text bodies also need `binaryBodies`), or when empty. Redacted as `requestBody` is unless an agent asks with `reveal: true`.',
      args: { reveal: t.arg.boolean({ required: false, description: REVEAL_DESCRIPTION }) },
      resolve: (entry, args, context) =>
        revealFor(context, args.reveal, 'response bodies')
          ? entry.responseBody
          : redactedNetworkParts(entry, redactorOf(context)).responseBody,
    }),
  }),
});

const NetworkLogRef = builder.objectRef<NetworkRead>('NetworkLog').implement({
  description: 'A read of the bounded network buffer (the newest 500 entries).',
  fields: (t) => ({
    entries: t.field({
      type: [NetworkEntryRef],
      description: 'The matching entries still in the buffer, oldest first.',
      resolve: (log) => log.entries,
    }),
    overflowed: t.exposeInt('overflowed', { description: 'Entries pushed out of the buffer so far.' }),
    total: t.exposeInt('total', { description: 'Entries ever captured in this session.' }),
    droppedInFlight: t.exposeInt('droppedInFlight', {
      description:
        'Requests never recorded: a page had more than 1,000 in flight at once, and the oldest were forgotten before they finished.',
    }),
  }),
});

const NetworkFilterRef = builder.objectRef<NetworkCapture['filter']>('NetworkFilter').implement({
  description: 'Which requests a capture records; an empty list means "any".',
  fields: (t) => ({
    urlPatterns: t.stringList({
      description: 'Globs on the whole URL (`*` matches anything); a request must match one.',
      resolve: (filter) => [...(filter.urlPatterns ?? [])],
    }),
    methods: t.stringList({
      description: 'HTTP methods, upper-cased; a request must use one.',
      resolve: (filter) => [...(filter.methods ?? [])],
    }),
    resourceTypes: t.stringList({
      description:
        "Chromium's resource types (document, fetch, xhr, image, script, ...); a request must be one.",
      resolve: (filter) => [...(filter.resourceTypes ?? [])],
    }),
  }),
});

const NetworkCaptureRef = builder.objectRef<NetworkCapture>('NetworkCapture').implement({
  description: 'An armed capture: requests matching its filter are recorded until it is stopped.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The capture id (`c1`, `c2`, ...); pass it as `capture:` to stopNetworkCapture.',
    }),
    filter: t.field({
      type: NetworkFilterRef,
      description: 'Which requests it records.',
      resolve: (capture) => capture.filter,
    }),
    bodies: t.exposeBoolean('bodies', { description: 'Whether it keeps request and response bodies.' }),
    binaryBodies: t.exposeBoolean('binaryBodies', {
      description: 'Whether it keeps non-text bodies too (as BASE64); only text bodies when false.',
    }),
    maxBodyBytes: t.exposeInt('maxBodyBytes', {
      description: 'Bytes kept per body, after the clamp (1 to 1,048,576).',
    }),
    startedAt: t.field({
      type: 'DateTime',
      description: 'When the capture was armed.',
      resolve: (capture) => capture.startedAt,
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  network: t.field({
    type: NetworkLogRef,
    description:
      'Requests recorded by armed captures (see startNetworkCapture); readable after the app ends.',
    requiresCapability: 'INTERCEPT',
    args: {
      last: t.arg.int({ required: false, description: 'Only the newest N matching entries.' }),
      afterSeq: t.arg.int({
        required: false,
        description: 'Only entries with a larger `seq`: resume reading without gaps or repeats.',
      }),
      ...entryFilterArgs(t.arg),
    },
    resolve: (session, args, context) =>
      session.pageState.network.read({ ...args, shownUrl: (url) => shownUrl(context, url) }),
  }),
  networkCaptures: t.field({
    type: [NetworkCaptureRef],
    description: 'The captures armed now, in arming order; stopped ones are not listed.',
    requiresCapability: 'INTERCEPT',
    resolve: (session) => session.pageState.network.captures(),
  }),
}));

const NetworkFilterInput = builder.inputType('NetworkFilterInput', {
  description: 'Every list empty or absent means "any".',
  fields: (t) => ({
    urlPatterns: t.stringList({
      required: false,
      description: 'Globs on the whole URL; `*` matches anything.',
    }),
    methods: t.stringList({
      required: false,
      description: 'HTTP methods (GET, POST, ...); upper-cased before matching.',
    }),
    resourceTypes: t.stringList({ required: false, description: 'document, fetch, xhr, image, script, ...' }),
  }),
});

builder.mutationFields((t) => {
  const intercept = { requiresCapability: 'INTERCEPT', governance: { session: 'session' } } as const;
  return {
    startNetworkCapture: t.field({
      type: NetworkCaptureRef,
      description: `Arms a capture: matching requests are recorded in \`network\` and on the subscription. A session arms at most ${MAX_CAPTURES} captures at once; one more fails with CAPTURE_LIMIT (stop one with stopNetworkCapture, or widen a filter).`,
      ...intercept,
      args: {
        ...sessionArg,
        filter: t.arg({
          type: NetworkFilterInput,
          required: false,
          description: 'Which requests to record; every request when absent.',
        }),
        bodies: t.arg.boolean({ required: false, description: 'Keep text bodies (default false).' }),
        binaryBodies: t.arg.boolean({ required: false, description: 'Keep other bodies too, as base64.' }),
        maxBodyBytes: t.arg.int({
          required: false,
          description: 'Per body; default 65536, clamped to 1 MiB.',
        }),
      },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.network.arm(args),
    }),
    stopNetworkCapture: t.field({
      type: NetworkCaptureRef,
      description: 'Disarms a capture; what it recorded stays readable.',
      ...intercept,
      args: {
        ...sessionArg,
        capture: t.arg.id({
          required: true,
          description:
            'The capture id from startNetworkCapture; an unknown one fails with NETWORK_CAPTURE_NOT_FOUND.',
        }),
      },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).pageState.network.disarm(String(args.capture)),
    }),
  };
});

const NetworkEventRef = builder.objectRef<CursoredDelivery<NetworkEntry>>('NetworkEvent').implement({
  description: 'One delivery of the `network` subscription.',
  fields: (t) => ({
    entry: t.field({
      type: NetworkEntryRef,
      description: 'The recorded request.',
      resolve: (delivery) => delivery.event,
    }),
    droppedBefore: t.exposeInt('droppedBefore', DROPPED_BEFORE),
    cursor: t.string({ ...CURSOR, resolve: (delivery, _args, context) => cursorOf(delivery, context) }),
  }),
});

builder.subscriptionField('network', (t) =>
  t.field({
    type: NetworkEventRef,
    description:
      'Requests as armed captures record them; the same entries `Session.network` shows. Without `session`: every session whose transport has INTERCEPT.',
    requiresCapability: { capability: 'INTERCEPT', session: 'session', perEventSource: true },
    args: {
      session: t.arg.id({
        required: false,
        description: "Only this session's requests; an unknown id fails with SESSION_NOT_FOUND.",
      }),
      ...entryFilterArgs(t.arg),
      replay: t.arg.boolean({ required: false, description: 'Start with the buffered entries.' }),
      after: t.arg.string(AFTER),
    },
    subscribe: (_root, args, context) =>
      topicFeed(context, TOPIC_FEEDS.network, { ...args, shownUrl: (url) => shownUrl(context, url) }),
    resolve: (delivery) => delivery,
  }),
);
