import type { StubInfo } from '../transports/contract/renderer-control.js';
import { builder } from './builder.js';
import { shownText, shownUrl } from './reveal.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';

const NetworkStubRef = builder.objectRef<StubInfo>('NetworkStub').implement({
  description:
    'A canned answer for renderer requests matching a URL glob; when several active stubs match, the newest answers.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The stub id (`stub1`, ...); pass it as `stub:` to unstubNetwork.' }),
    pattern: t.string({
      description:
        "The glob on the whole URL; `*` matches anything. In clear for an agent; for approvers and observers (and everyone under the policy's `reveal: NONE`) with its query's secrets redacted, as a request's URL is.",
      resolve: (stub, _args, context) => shownUrl(context, stub.pattern),
    }),
    methods: t.stringList({
      description: 'Upper-case HTTP methods it answers; empty means any.',
      resolve: (stub) => [...stub.methods],
    }),
    status: t.exposeInt('status', {
      nullable: true,
      description:
        'The status it answers with; null means 200 when it has a body, else the real response (delay only).',
    }),
    body: t.string({
      nullable: true,
      description:
        "The body it answers with; null when none was given. In clear for an agent; for approvers and observers (and everyone under the policy's `reveal: NONE`) scrubbed by the policy's redaction patterns.",
      resolve: (stub, _args, context) => (stub.body === null ? null : shownText(context, stub.body)),
    }),
    abort: t.exposeBoolean('abort', {
      description: 'True when it fails matching requests as a network error.',
    }),
    delayMs: t.exposeInt('delayMs', {
      description: 'Milliseconds it waits before answering (0 to 60000).',
    }),
    times: t.exposeInt('times', {
      nullable: true,
      description: 'Matches it answers before retiring; null for unlimited.',
    }),
    hits: t.exposeInt('hits', { description: 'Requests it answered.' }),
    active: t.exposeBoolean('active', { description: 'False once `times` is used up or it was removed.' }),
    neverMatched: t.boolean({
      description: 'True while no request has matched it: check the pattern against `network` entries.',
      resolve: (stub) => stub.hits === 0,
    }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  networkStubs: t.field({
    type: [NetworkStubRef],
    description: 'Every stub of the session, retired ones included, with its hit count.',
    requiresCapability: 'INTERCEPT',
    resolve: (session) => session.pageState.network.stubs(),
  }),
}));

const HeaderInput = builder.inputType('HeaderInput', {
  description: 'One HTTP header a stub answers with.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The header name; lower-cased when the stub is made.' }),
    value: t.string({ required: true, description: 'The header value.' }),
  }),
});

const StubInput = builder.inputType('StubInput', {
  description: 'Answer with status/headers/body, or `abort`, or only `delayMs` to delay the real response.',
  fields: (t) => ({
    pattern: t.string({
      required: true,
      description: 'A glob on the whole URL; `*` matches anything. Empty fails with BAD_INPUT.',
    }),
    methods: t.stringList({
      required: false,
      description: 'Only these HTTP methods (upper-cased); any when absent.',
    }),
    status: t.int({ required: false, description: 'Default 200 when a body is given.' }),
    headers: t.field({
      type: [HeaderInput],
      required: false,
      description: 'Response headers to answer with.',
    }),
    body: t.string({ required: false, description: 'The response body to answer with (text).' }),
    abort: t.boolean({ required: false, description: 'Fail the request as a network error.' }),
    delayMs: t.int({ required: false, description: 'Wait before answering; clamped to 60000.' }),
    times: t.int({
      required: false,
      description: 'Retire after this many matches (at least 1, else BAD_INPUT); unlimited when absent.',
    }),
  }),
});

builder.mutationFields((t) => {
  const intercept = { requiresCapability: 'INTERCEPT', governance: { session: 'session' } } as const;
  return {
    stubNetwork: t.field({
      type: NetworkStubRef,
      description:
        'Answers matching renderer requests instead of the network (or delays or aborts them). A session keeps at most 100 stubs: spent ones make room oldest first, and past 100 active ones this fails with STUB_LIMIT (remove some with unstubNetwork, or give new ones `times`).',
      ...intercept,
      args: {
        ...sessionArg,
        input: t.arg({ type: StubInput, required: true, description: 'What to match and how to answer.' }),
      },
      resolve: (_root, args, { sessions }) => sessions.get(args.session).pageState.network.stub(args.input),
    }),
    unstubNetwork: t.field({
      type: NetworkStubRef,
      description: 'Removes a stub and returns it with its final hit count (`neverMatched` if it never hit).',
      ...intercept,
      args: {
        ...sessionArg,
        stub: t.arg.id({
          required: true,
          description: 'The stub id from stubNetwork; an unknown one fails with STUB_NOT_FOUND.',
        }),
      },
      resolve: (_root, args, { sessions }) =>
        sessions.get(args.session).pageState.network.unstub(String(args.stub)),
    }),
  };
});
