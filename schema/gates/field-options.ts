import type {
  FieldNullability,
  InputFieldMap,
  InputShapeFromFields,
  SchemaTypes,
  TypeParam,
} from '@pothos/core';
import type { ActedOnKind } from '../../domain/governance/request/governed-request.js';
import type { TargetRequest } from '../../domain/interaction/target-input.js';
import type { Session } from '../../domain/sessions/session.js';
import type { Capability } from '../../transports/contract/capabilities.js';

/** Which eval fields a server exposes: `--allow-eval[=main|renderer]`. */
export type EvalScope = 'none' | 'main' | 'renderer' | 'both';

/** The scope a field needs: it is present with `--allow-eval`, or with `--allow-eval=` this scope. */
export type FieldEvalScope = Exclude<EvalScope, 'none' | 'both'>;

/** How GraphQL hands over an ID argument. */
type Id = string | number;

/**
 * The name of one of the field's own arguments whose value has this shape: a typo, a rename or an argument
 * of the wrong type fails to compile. `NoInfer`: the field's `args` alone decide what its arguments are.
 * Over no particular field (the plugins reading a declaration at run time) it is any name.
 */
export type ArgumentOf<Args extends InputFieldMap, Shape = unknown> = NoInfer<
  string extends keyof Args
    ? string
    : {
        [Name in keyof Args & string]-?: NonNullable<
          InputShapeFromFields<Args>[Name & keyof InputShapeFromFields<Args>]
        > extends Shape
          ? Name
          : never;
      }[keyof Args & string]
>;

/** What an object field's parent must be for the gate to find its session: the session or a part of it. */
export type SessionSource = Session | { readonly sessionId: string };

/** A subscription names its session by argument; the gate refuses the stream before it starts. */
export interface SubscriptionCapability<Args extends InputFieldMap> {
  readonly capability: Capability;
  readonly session: ArgumentOf<Args, Id>;
  /**
   * Without `session` the stream spans every session and keeps only events from sessions with the
   * capability, so it is not refused for want of one session — only where no transport could feed it.
   */
  readonly perEventSource?: boolean;
}

/** The argument shape that names each kind of thing a mutation can act on. */
interface ActedOnShapes extends Record<ActedOnKind, unknown> {
  element: TargetRequest;
  menuItem: readonly string[];
  contextMenuItem: readonly string[];
  tray: Id;
  program: object;
  location: { readonly url?: string | null; readonly step?: string | null };
}

/** What a mutation acts on, previewed before the policy decides, and the argument that names it. */
type ActsOn<Args extends InputFieldMap> =
  | { readonly actsOn?: undefined; readonly target?: undefined }
  | {
      [Kind in ActedOnKind]: {
        readonly actsOn: Kind;
        readonly target: ArgumentOf<Args, ActedOnShapes[Kind]>;
      };
    }[ActedOnKind];

/** Arguments besides session, window and target that change how a mutation is previewed or recorded. */
export interface RiskInputs<Args extends InputFieldMap> {
  /** Its own wait for the target: the preview never waits longer. */
  readonly wait?: ArgumentOf<Args, number>;
  /** Text it types into its target: shown to approvers and in the audit unless the target is secret. */
  readonly typed?: readonly ArgumentOf<Args, string | readonly string[]>[];
  /** A flag that makes whatever it types secret, whatever the target. */
  readonly secret?: ArgumentOf<Args, boolean>;
  /** The tray event it emits: only clicks use the tray, so only they weigh the tray's name. */
  readonly event?: ArgumentOf<Args, string>;
}

/** A mutation that acts: put to the policy, previewed, approved when asked, audited. */
export type GovernedAction<Args extends InputFieldMap> = {
  readonly answersApproval?: false;
  /** The argument naming the session it acts on; null when it acts on none that exists yet (launch). */
  readonly session: ArgumentOf<Args, Id> | null;
  /** The argument naming the window it acts in, by id. */
  readonly window?: ArgumentOf<Args, Id>;
  readonly risk?: RiskInputs<Args>;
} & ActsOn<Args>;

/** approve / deny: rate-limited and audited, but never put to the policy (an approval of an approval). */
export interface ApproverAnswer {
  readonly answersApproval: true;
}

/** Every mutation declares one: the chokepoint reads it, and the build fails on a mutation without it. */
export type MutationGovernance<Args extends InputFieldMap> = GovernedAction<Args> | ApproverAnswer;

declare global {
  export namespace PothosSchemaTypes {
    export interface BuildSchemaOptions<Types extends SchemaTypes> {
      /** The server's `--allow-eval` scope; fields outside it are left out of the schema. */
      allowEval?: EvalScope;
    }

    export interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /** Arbitrary code, or as far-reaching: absent from the schema unless the server's scope opens it. */
      evalScope?: FieldEvalScope;
    }

    export interface ObjectFieldOptions<
      Types extends SchemaTypes,
      ParentShape,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** Refused before its resolver when the parent's session runs on a transport without it. */
      requiresCapability?: ParentShape extends SessionSource ? Capability : never;
    }

    export interface MutationFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** Refused before its resolver when the session its governance names lacks it (still audited). */
      requiresCapability?: Capability;
      governance: MutationGovernance<Args>;
      /**
       * Ends a session: runs even after an earlier step of its operation failed, as a `finally` does, so a
       * failed step never leaves an app running (schema/gates/steps.ts).
       */
      endsSession?: true;
    }

    export interface SubscriptionFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      requiresCapability?: SubscriptionCapability<Args>;
    }
  }
}
