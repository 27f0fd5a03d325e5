import { defaultFieldResolver, type GraphQLField, type GraphQLSchema } from 'graphql';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { governMutation } from '../resolvers/governance/chokepoint.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../resolvers/governance/client-identity.js';
import type { Governance } from '../resolvers/governance/governance.js';
import type { GatewayContext } from './context.js';

/** Field options for approve / deny: rate-limited and audited, but never put to the policy themselves. */
export const answersApproval = { extensions: { answersApproval: true } } as const;

/**
 * Wraps every Mutation field, present and future, so it passes the chokepoint: policy, approval, audit.
 * Run once on the built schema, outermost, so even a capability refusal is recorded.
 */
export function enforceGovernance(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    const answers = field.extensions?.answersApproval === true;
    const sessionArgument = answers ? null : sessionArgumentOf(field);
    field.resolve = (root, args, context: GatewayContext, info) => {
      if (!context.governance) return resolve(root, args, context, info);
      return governMutation(
        context.governance,
        { operation: field.name, client: clientOf(context), args, sessionArgument, answersApproval: answers },
        (previewedTarget) =>
          resolve(root, args, previewedTarget ? { ...context, previewedTarget } : context, info),
      );
    };
  }
  return schema;
}

/**
 * Which argument names the session a mutation acts on: `session` on actions, `id` on stop and forceKill
 * (as capability gating reads it), none on launch.
 */
export function sessionArgumentOf(field: GraphQLField<unknown, unknown>): string | null {
  const names = new Set(field.args.map((arg) => arg.name));
  if (names.has('session')) return 'session';
  return names.has('id') ? 'id' : null;
}

export function clientOf(context: GatewayContext): ClientIdentity {
  return context.client ?? ANONYMOUS_LOOPBACK;
}

export function governanceOf(context: GatewayContext): Governance {
  if (context.governance) return context.governance;
  throw new StagegraphError('INTERNAL', 'This gateway was built without governance.');
}
