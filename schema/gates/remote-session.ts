import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { RemoteSession } from '../../domain/cluster/remote-session.js';

/** The fields of a Session that the cluster directory answers for a session another replica owns. */
const DIRECTORY_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'transport',
  'status',
  'startedAt',
  'endedAt',
  'replica',
]);

/**
 * In cluster mode `sessions` and `session(id)` also hand out other replicas' sessions (RemoteSession).
 * Their every other field is refused here, before its resolver or any gate looks for a local session:
 * SESSION_LOST when the owner is gone, SESSION_REMOTE naming the owner while it lives.
 */
export class RemoteSessionPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolve: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ) {
    if (fieldConfig.parentType !== 'Session' || DIRECTORY_FIELDS.has(fieldConfig.name)) return resolve;
    return ((parent, args, context, info) => {
      if (parent instanceof RemoteSession) throw parent.unreachable();
      return resolve(parent, args, context, info);
    }) satisfies GraphQLFieldResolver<unknown, Types['Context'], object>;
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      remoteSession: RemoteSessionPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('remoteSession', RemoteSessionPlugin);
