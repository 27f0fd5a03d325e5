import type { Delivery } from '../resolvers/bounded/subscriber-queue.js';
import { networkStream } from '../resolvers/capture/capture-streams.js';
import type { NetworkCapture, NetworkRead } from '../resolvers/capture/network.js';
import { headerList, type NetworkEntry } from '../resolvers/capture/network-log.js';
import type { NetworkBody, StubInfo } from '../transports/renderer-control.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { SessionRef } from './session.js';

const HeaderRef = builder.objectRef<{ name: string; value: string }>('Header').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

const BodyEncodingEnum = builder.enumType('BodyEncoding', {
  values: ['TEXT', 'BASE64'] as const,
  description: 'TEXT for text content types (UTF-8); BASE64 for anything else.',
});

const NetworkBodyRef = builder.objectRef<NetworkBody>('NetworkBody').implement({
  fields: (t) => ({
    encoding: t.field({ type: BodyEncodingEnum, resolve: (body) => body.encoding }),
    data: t.exposeString('data'),
    size: t.exposeInt('size', { description: 'Full size in bytes, before truncation.' }),
    truncated: t.exposeBoolean('truncated'),
  }),
});

const NetworkEntryRef = builder.objectRef<NetworkEntry>('NetworkEntry').implement({
  description: 'One finished or failed request of a renderer.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'Per-session, strictly increasing: resume with `afterSeq`.' }),
    sessionId: t.exposeID('sessionId'),
    time: t.field({ type: 'DateTime', resolve: (entry) => entry.time }),
    windowId: t.exposeID('windowId', { nullable: true }),
    method: t.exposeString('method'),
    url: t.exposeString('url'),
    resourceType: t.exposeString('resourceType', { description: 'document, fetch, xhr, image, script, ...' }),
    status: t.exposeInt('status', { nullable: true, description: 'Null when no response arrived.' }),
    requestHeaders: t.field({
      type: [HeaderRef],
      description: 'Cookie and authorization values are redacted unless `reveal: true`.',
      args: { reveal: t.arg.boolean({ required: false }) },
      resolve: (entry, args) => headerList(entry.requestHeaders, args.reveal),
    }),
    responseHeaders: t.field({
      type: [HeaderRef],
      description: 'Set-Cookie values are redacted unless `reveal: true`.',
      args: { reveal: t.arg.boolean({ required: false }) },
      resolve: (entry, args) => headerList(entry.responseHeaders, args.reveal),
    }),
    durationMs: t.exposeInt('durationMs', { nullable: true, description: 'Request start to response end.' }),
    failure: t.exposeString('failure', {
      nullable: true,
      description: "Chromium's error text, when it failed.",
    }),
    stubId: t.exposeID('stubId', { nullable: true, description: 'The stub that answered it, if one did.' }),
    requestBody: t.field({ type: NetworkBodyRef, nullable: true, resolve: (entry) => entry.requestBody }),
    responseBody: t.field({ type: NetworkBodyRef, nullable: true, resolve: (entry) => entry.responseBody }),
  }),
});

const NetworkLogRef = builder.objectRef<NetworkRead>('NetworkLog').implement({
  description: 'A read of the bounded network buffer (the newest 500 entries).',
  fields: (t) => ({
    entries: t.field({ type: [NetworkEntryRef], resolve: (log) => log.entries }),
    overflowed: t.exposeInt('overflowed', { description: 'Entries pushed out of the buffer so far.' }),
    total: t.exposeInt('total', { description: 'Entries ever captured in this session.' }),
    droppedInFlight: t.exposeInt('droppedInFlight', {
      description:
        'Requests never recorded: a page had more than 1,000 in flight at once, and the oldest were forgotten before they finished.',
    }),
  }),
});

const NetworkFilterRef = builder.objectRef<NetworkCapture['filter']>('NetworkFilter').implement({
  fields: (t) => ({
    urlPatterns: t.stringList({ resolve: (filter) => [...(filter.urlPatterns ?? [])] }),
    methods: t.stringList({ resolve: (filter) => [...(filter.methods ?? [])] }),
    resourceTypes: t.stringList({ resolve: (filter) => [...(filter.resourceTypes ?? [])] }),
  }),
});

const NetworkCaptureRef = builder.objectRef<NetworkCapture>('NetworkCapture').implement({
  description: 'An armed capture: requests matching its filter are recorded until it is stopped.',
  fields: (t) => ({
    id: t.exposeID('id'),
    filter: t.field({ type: NetworkFilterRef, resolve: (capture) => capture.filter }),
    bodies: t.exposeBoolean('bodies'),
    binaryBodies: t.exposeBoolean('binaryBodies'),
    maxBodyBytes: t.exposeInt('maxBodyBytes'),
    startedAt: t.field({ type: 'DateTime', resolve: (capture) => capture.startedAt }),
  }),
});

const NetworkStubRef = builder.objectRef<StubInfo>('NetworkStub').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    pattern: t.exposeString('pattern'),
    methods: t.stringList({ resolve: (stub) => [...stub.methods] }),
    status: t.exposeInt('status', { nullable: true }),
    body: t.exposeString('body', { nullable: true }),
    abort: t.exposeBoolean('abort'),
    delayMs: t.exposeInt('delayMs'),
    times: t.exposeInt('times', { nullable: true }),
    hits: t.exposeInt('hits', { description: 'Requests it answered.' }),
    active: t.exposeBoolean('active', { description: 'False once `times` is used up or it was removed.' }),
    neverMatched: t.boolean({
      description: 'True while no request has matched it: check the pattern against `network` entries.',
      resolve: (stub) => stub.hits === 0,
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  network: t.field({
    type: NetworkLogRef,
    description:
      'Requests recorded by armed captures (see startNetworkCapture); readable after the app ends.',
    ...requiresCapability('INTERCEPT'),
    args: {
      last: t.arg.int({ required: false, description: 'Only the newest N matching entries.' }),
      afterSeq: t.arg.int({ required: false }),
      urlContains: t.arg.string({ required: false }),
      methods: t.arg.stringList({ required: false }),
      resourceTypes: t.arg.stringList({ required: false }),
      windowId: t.arg.id({ required: false }),
      failedOnly: t.arg.boolean({ required: false }),
    },
    resolve: (session, args) => session.capture.network.read(args),
  }),
  networkCaptures: t.field({
    type: [NetworkCaptureRef],
    ...requiresCapability('INTERCEPT'),
    resolve: (session) => session.capture.network.captures(),
  }),
  networkStubs: t.field({
    type: [NetworkStubRef],
    description: 'Every stub of the session, retired ones included, with its hit count.',
    ...requiresCapability('INTERCEPT'),
    resolve: (session) => session.capture.network.stubs(),
  }),
}));

const NetworkFilterInput = builder.inputType('NetworkFilterInput', {
  description: 'Every list empty or absent means "any".',
  fields: (t) => ({
    urlPatterns: t.stringList({
      required: false,
      description: 'Globs on the whole URL; `*` matches anything.',
    }),
    methods: t.stringList({ required: false }),
    resourceTypes: t.stringList({ required: false, description: 'document, fetch, xhr, image, script, ...' }),
  }),
});

const HeaderInput = builder.inputType('HeaderInput', {
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

const StubInput = builder.inputType('StubInput', {
  description: 'Answer with status/headers/body, or `abort`, or only `delayMs` to delay the real response.',
  fields: (t) => ({
    pattern: t.string({ required: true, description: 'A glob on the whole URL; `*` matches anything.' }),
    methods: t.stringList({ required: false }),
    status: t.int({ required: false, description: 'Default 200 when a body is given.' }),
    headers: t.field({ type: [HeaderInput], required: false }),
    body: t.string({ required: false }),
    abort: t.boolean({ required: false, description: 'Fail the request as a network error.' }),
    delayMs: t.int({ required: false, description: 'Wait before answering; clamped to 60000.' }),
    times: t.int({ required: false, description: 'Retire after this many matches; unlimited when absent.' }),
  }),
});

builder.mutationFields((t) => {
  const session = t.arg.id({ required: false, description: 'Optional when exactly one session is live.' });
  const intercept = requiresCapability('INTERCEPT');
  return {
    startNetworkCapture: t.field({
      type: NetworkCaptureRef,
      description: 'Arms a capture: matching requests are recorded in `network` and on the subscription.',
      ...intercept,
      args: {
        session,
        filter: t.arg({ type: NetworkFilterInput, required: false }),
        bodies: t.arg.boolean({ required: false, description: 'Keep text bodies (default false).' }),
        binaryBodies: t.arg.boolean({ required: false, description: 'Keep other bodies too, as base64.' }),
        maxBodyBytes: t.arg.int({
          required: false,
          description: 'Per body; default 65536, clamped to 1 MiB.',
        }),
      },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).capture.network.arm(args),
    }),
    stopNetworkCapture: t.field({
      type: NetworkCaptureRef,
      description: 'Disarms a capture; what it recorded stays readable.',
      ...intercept,
      args: { session, capture: t.arg.id({ required: true }) },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).capture.network.disarm(String(args.capture)),
    }),
    stubNetwork: t.field({
      type: NetworkStubRef,
      description: 'Answers matching renderer requests instead of the network (or delays or aborts them).',
      ...intercept,
      args: { session, input: t.arg({ type: StubInput, required: true }) },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).capture.network.stub(args.input),
    }),
    unstubNetwork: t.field({
      type: NetworkStubRef,
      description: 'Removes a stub and returns it with its final hit count (`neverMatched` if it never hit).',
      ...intercept,
      args: { session, stub: t.arg.id({ required: true }) },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).capture.network.unstub(String(args.stub)),
    }),
  };
});

const NetworkEventRef = builder.objectRef<Delivery<NetworkEntry>>('NetworkEvent').implement({
  fields: (t) => ({
    entry: t.field({ type: NetworkEntryRef, resolve: (delivery) => delivery.event }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description: 'Entries this subscriber lost just before this one because it read too slowly.',
    }),
  }),
});

builder.subscriptionField('network', (t) =>
  t.field({
    type: NetworkEventRef,
    description:
      'Requests as armed captures record them; the same entries `Session.network` shows. Without `session`: every session whose transport has INTERCEPT.',
    ...requiresCapability('INTERCEPT', { perEventSource: true }),
    args: {
      session: t.arg.id({ required: false }),
      urlContains: t.arg.string({ required: false }),
      methods: t.arg.stringList({ required: false }),
      resourceTypes: t.arg.stringList({ required: false }),
      windowId: t.arg.id({ required: false }),
      failedOnly: t.arg.boolean({ required: false }),
      replay: t.arg.boolean({ required: false, description: 'Start with the buffered entries.' }),
    },
    subscribe: (_root, args, { hub, sessions }) => networkStream(hub, sessions, args),
    resolve: (delivery) => delivery,
  }),
);
