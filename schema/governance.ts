import { defaultFieldResolver, type GraphQLField, type GraphQLSchema } from 'graphql';
import { governMutation } from '../domain/governance/chokepoint.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../domain/governance/client-identity.js';
import type { Governance } from '../domain/governance/governance.js';
import type { ActedOnKind } from '../domain/governance/governed-request.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { disclosureOf } from './argument-disclosure.js';
import type { GatewayContext } from './context.js';

/** Field options for approve / deny: rate-limited and audited, but never put to the policy themselves. */
export const answersApproval = { extensions: { answersApproval: true } } as const;

/**
 * Field options declaring what a mutation acts on when it is not a page `target` (a menu item, a tray,
 * the program a launch runs), merged with the field's other options (e.g. its capability). The chokepoint
 * previews it so risk, rules, approvers and the audit see it as they see a page element.
 */
export function actsOn<T extends { extensions?: Record<string, unknown> }>(kind: ActedOnKind, options?: T) {
  return { ...options, extensions: { ...options?.extensions, actsOn: kind } } as T & {
    extensions: { actsOn: ActedOnKind };
  };
}

/** What a Mutation field acts on: declared with `actsOn`, else a page element when it takes a `target`. */
export function actedOnOf(field: GraphQLField<unknown, unknown>): ActedOnKind | null {
  const declared = field.extensions?.actsOn as ActedOnKind | undefined;
  if (declared) return declared;
  return field.args.some((arg) => arg.name === 'target') ? 'element' : null;
}

/**
 * Wraps every Mutation field, present and future, so it passes the chokepoint: policy, approval, audit.
 * Run once on the built schema, outermost, so even a capability refusal is recorded.
 */
export function enforceGovernance(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    const answers = field.extensions?.answersApproval === true;
    const sessionArgument = answers ? null : sessionArgumentOf(field);
    const actedOn = answers ? null : actedOnOf(field);
    const disclosure = disclosureOf(field);
    field.resolve = (root, args, context: GatewayContext, info) => {
      if (!context.governance) return resolve(root, args, context, info);
      return governMutation(
        context.governance,
        {
          operation: field.name,
          client: clientOf(context),
          args,
          sessionArgument,
          answersApproval: answers,
          actsOn: actedOn,
          disclosure,
        },
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
