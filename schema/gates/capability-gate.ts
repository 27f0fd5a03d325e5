import './field-options.js';
import SchemaBuilder, {
  BasePlugin,
  type PothosOutputFieldConfig,
  PothosSchemaError,
  type SchemaTypes,
} from '@pothos/core';
import {
  DirectiveLocation,
  GraphQLDirective,
  type GraphQLEnumType,
  type GraphQLFieldResolver,
  GraphQLNonNull,
  GraphQLSchema,
} from 'graphql';
import type { Cluster } from '../../domain/cluster/cluster.js';
import { sessionActions } from '../../domain/sessions/next-actions.js';
import { Session } from '../../domain/sessions/session.js';
import type { SessionRegistry } from '../../domain/sessions/session-registry.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Capability } from '../../transports/contract/capabilities.js';
import type { GatewayContext } from '../context.js';
import type { SessionSource } from './field-options.js';

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types['Context'], object>;
type Args = Readonly<Record<string, unknown>>;
/** Finds the session a field acts on, as its declaration says: its parent, or one of its arguments. */
type SessionOf = (parent: unknown, args: Args, sessions: SessionRegistry) => Session;

interface Gate {
  readonly capability: Capability;
  readonly sessionOf: SessionOf;
  /** Subscriptions spanning sessions (SubscriptionCapability.perEventSource): the argument naming one. */
  readonly perEventSource: string | null;
  /** Subscriptions: the argument naming their session, which in a cluster may be another replica's. */
  readonly sessionArgument: string | null;
}

/**
 * Refuses, before its resolver and so before any transport call, a field declared `requiresCapability`
 * when the session it acts on runs on a transport without that capability; the SDL shows the declaration
 * as `@requiresCapability(capability: …)`. A subscription is refused where its work starts, in `subscribe`:
 * a session's capabilities are fixed when it is created, so its events need no second look.
 */
export class CapabilityGatePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    const gate = gateOf(fieldConfig);
    if (!gate) return fieldConfig;
    const directives = {
      ...(fieldConfig.extensions?.directives as Record<string, unknown> | undefined),
      requiresCapability: { capability: gate.capability },
    };
    return { ...fieldConfig, extensions: { ...fieldConfig.extensions, directives } };
  }

  override wrapResolve(resolve: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>) {
    const gate = gateOf(fieldConfig);
    if (!gate || fieldConfig.kind === 'Subscription') return resolve;
    const { capability, sessionOf } = gate;
    return ((parent, args, context, info) => {
      const { sessions } = context as GatewayContext;
      const session = sessionOf(parent, args as Args, sessions);
      if (!session.capabilities[capability]) throw refusal(session, capability, sessions);
      return resolve(parent, args, context, info);
    }) satisfies Resolver<Types>;
  }

  override wrapSubscribe(
    subscribe: Resolver<Types> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ) {
    const gate = gateOf(fieldConfig);
    if (!gate || !subscribe) return subscribe;
    const { capability, sessionOf, perEventSource } = gate;
    return ((parent, args, context, info) => {
      const { sessions } = context as GatewayContext;
      if (perEventSource !== null && (args as Args)[perEventSource] == null) {
        const transports = sessions.transports();
        if (!transports.some((transport) => transport.capabilities[capability]))
          throw noTransportHas(capability);
        return subscribe(parent, args, context, info);
      }
      const elsewhere = remoteId(args as Args, gate.sessionArgument, context as GatewayContext);
      if (elsewhere !== null)
        return gateRemote(elsewhere, capability, context as GatewayContext).then(() =>
          subscribe(parent, args, context, info),
        );
      const session = sessionOf(parent, args as Args, sessions);
      if (!session.capabilities[capability]) throw refusal(session, capability, sessions);
      return subscribe(parent, args, context, info);
    }) satisfies Resolver<Types>;
  }

  /** The directive the SDL shows on gated fields, over the `Capability` enum of this very schema. */
  override afterBuild(schema: GraphQLSchema): GraphQLSchema {
    const directive = new GraphQLDirective({
      name: 'requiresCapability',
      description: 'Refused, before any transport call, on a session whose transport lacks this capability.',
      locations: [DirectiveLocation.FIELD_DEFINITION],
      args: {
        capability: {
          type: new GraphQLNonNull(schema.getType('Capability') as GraphQLEnumType),
          description:
            "The capability the session's transport must have; without it the field fails with CAPABILITY_UNSUPPORTED, naming the transports that have it.",
        },
      },
    });
    const config = schema.toConfig();
    return new GraphQLSchema({ ...config, directives: [...config.directives, directive] });
  }
}

/** What a field declares, by where its session comes from; null when it needs no capability. */
function gateOf<Types extends SchemaTypes>(fieldConfig: PothosOutputFieldConfig<Types>): Gate | null {
  switch (fieldConfig.kind) {
    case 'Object': {
      // Typed `never` here, where the parent is unknown; the compiler checked it against the real parent.
      const capability = fieldConfig.pothosOptions.requiresCapability as Capability | undefined;
      return capability
        ? { capability, sessionOf: fromParent, perEventSource: null, sessionArgument: null }
        : null;
    }
    case 'Subscription': {
      const declared = fieldConfig.pothosOptions.requiresCapability;
      if (!declared) return null;
      return {
        capability: declared.capability,
        sessionOf: fromArgument(declared.session),
        perEventSource: declared.perEventSource ? declared.session : null,
        sessionArgument: declared.session,
      };
    }
    case 'Mutation': {
      const capability = fieldConfig.pothosOptions.requiresCapability;
      if (!capability) return null;
      const governance = fieldConfig.pothosOptions.governance;
      const argument = governance && !governance.answersApproval ? governance.session : null;
      if (argument === null)
        throw new PothosSchemaError(
          `Mutation.${fieldConfig.name} requires ${capability} but its governance names no session argument to check it on.`,
        );
      return { capability, sessionOf: fromArgument(argument), perEventSource: null, sessionArgument: null };
    }
    default:
      return null;
  }
}

/** Object fields: the parent is the session, or something of a session that knows its id. */
const fromParent: SessionOf = (parent, _args, sessions) =>
  parent instanceof Session ? parent : sessions.get((parent as Exclude<SessionSource, Session>).sessionId);

/** Root fields: the argument their declaration names. */
function fromArgument(argument: string): SessionOf {
  return (_parent, args, sessions) => {
    const id = args[argument];
    return sessions.get(typeof id === 'string' ? id : undefined);
  };
}

/** The session a subscription names when, in a cluster, this replica does not hold it; else null. */
function remoteId(args: Args, argument: string | null, context: GatewayContext) {
  const id = argument === null ? undefined : args[argument];
  const { cluster } = context;
  if (!cluster || typeof id !== 'string' || context.sessions.find(id)) return null;
  return { cluster, id };
}

/**
 * Another replica's session is read from its stream (domain/cluster/topic-feeds.ts): refused here as the
 * owner would refuse it, by its transport's capabilities, which every replica's same transport shares.
 */
async function gateRemote(
  { cluster, id }: { readonly cluster: Cluster; readonly id: string },
  capability: Capability,
  context: GatewayContext,
): Promise<void> {
  const session = await cluster.session(id);
  const transport = context.sessions.transports().find((known) => known.id === session.transportId);
  if (transport && !transport.capabilities[capability]) throw refusal(session, capability, context.sessions);
}

function refusal(
  session: { readonly id: string; readonly transportId: string },
  capability: Capability,
  sessions: SessionRegistry,
): StagegraphError {
  const able = sessions
    .transports()
    .filter((transport) => transport.capabilities[capability])
    .map((transport) => transport.id);
  const where =
    able.length > 0
      ? `Transports that have it: ${able.join(', ')}.`
      : 'No transport of this server has it yet.';
  return new StagegraphError(
    'CAPABILITY_UNSUPPORTED',
    `Session ${session.id} runs on ${session.transportId}, which lacks ${capability}. ${where}`,
    {
      nextActions: [sessionActions.transportsWith(capability)],
      details: { capability, transport: session.transportId, transportsWithCapability: able },
    },
  );
}

function noTransportHas(capability: Capability): StagegraphError {
  return new StagegraphError(
    'CAPABILITY_UNSUPPORTED',
    `No transport of this server has ${capability}, so this subscription could never deliver anything.`,
    {
      nextActions: [sessionActions.transportsWith(capability)],
      details: { capability, transportsWithCapability: [] },
    },
  );
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      capabilityGate: CapabilityGatePlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('capabilityGate', CapabilityGatePlugin);
