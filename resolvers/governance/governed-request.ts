/** Plain JSON, as GraphQL arguments arrive once coerced: what the policy matches and the audit stores. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type OperationKind = 'query' | 'mutation';

/** The session an operation acts on, as far as the policy may care. */
export type SessionInfo = {
  readonly id: string;
  readonly executablePath?: string | null;
  /** The app's main script or package path. */
  readonly main?: string | null;
  readonly windowTitle?: string | null;
  readonly windowUrl?: string | null;
};

export type BoundingBox = {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
};

/** The element an operation will touch, resolved before the policy decides (never the raw locator). */
export type TargetInfo = {
  readonly role: string;
  readonly name: string;
  readonly selector?: string | null;
  readonly bbox?: BoundingBox | null;
  /** The element's `type` attribute where it has one: `password` makes typed values secret. */
  readonly inputType?: string | null;
};

/** One operation as the chokepoint presents it to the policy, the approvals broker and the audit log. */
export type GovernedRequest = {
  /** The GraphQL field name, e.g. `click`. */
  readonly operation: string;
  readonly kind: OperationKind;
  readonly args: JsonObject;
  readonly session: SessionInfo | null;
  readonly target: TargetInfo | null;
};
