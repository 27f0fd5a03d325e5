import type { InputFieldMap } from '@pothos/core';
import type { GraphQLField } from 'graphql';
import type { GovernedOperation } from '../../domain/governance/request/governed-operation.js';
import type { MutationGovernance } from './field-options.js';

/** A field's `governance` as read at run time, its argument names checked by the compiler at the field. */
export type DeclaredGovernance = MutationGovernance<InputFieldMap>;

/** The declaration in the chokepoint's terms. */
export function governedOperation(name: string, declared: DeclaredGovernance): GovernedOperation {
  if (declared.answersApproval)
    return { name, answersApproval: true, session: null, window: null, actsOn: null, risk: {} };
  const { wait, secret, event } = declared.risk ?? {};
  return {
    name,
    answersApproval: false,
    session: declared.session,
    window: declared.window ?? null,
    actsOn: declared.actsOn ? { kind: declared.actsOn, argument: declared.target } : null,
    risk: { wait, secret, event },
  };
}

/** What a field of a built schema declares for the chokepoint; null when it declares nothing (no mutation). */
export function governedOperationOf(field: GraphQLField<unknown, unknown>): GovernedOperation | null {
  const declared = declaredBy(field);
  return declared ? governedOperation(field.name, declared) : null;
}

/** The arguments a field declares as typed into its target (schema/argument-disclosure.ts). */
export function typedArgumentsOf(field: GraphQLField<unknown, unknown>): readonly string[] {
  const declared = declaredBy(field);
  return declared && !declared.answersApproval ? (declared.risk?.typed ?? []) : [];
}

/** Pothos keeps every field's options on the field it builds. */
function declaredBy(field: GraphQLField<unknown, unknown>): DeclaredGovernance | undefined {
  return (field.extensions?.pothosOptions as { governance?: DeclaredGovernance } | undefined)?.governance;
}
