/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** How far an approval reaches. */
export type ApprovalScope =
  /** This and later identical requests (same operation, target and rule) from every session of the same app — the same app name, executable and main; for a desktop app its name on the accessibility bus and its command — until the policy is reloaded or the gateway restarts. The same target means the same kind, role, name and path, in any window. Never reaches another app; an operation on no session (launch) is approved once only. */
  | 'APP'
  /** This request only. */
  | 'ONCE'
  /** This and later identical requests (same session, operation, target and rule) until the session ends or the policy is reloaded. The same target means the same kind, role, name, path and window: approving "Delete All Notes" does not approve "Delete Account". An operation on no session (launch) is approved once only. */
  | 'SESSION';

/** One environment variable for a launched app. */
export type EnvVar = {
  /** The variable name, e.g. NODE_ENV. */
  name: string;
  /** Its value; redacted in the audit trail and approval requests. */
  value: string;
};

/** What to check. URL and TITLE are about the window; the rest need a target. */
export type ExpectKind =
  /** The target checkbox or radio is checked; false while no single element matches. */
  | 'CHECKED'
  /** How many elements match the target (1 or 0 with `nth`), compared with equals, min and max. */
  | 'COUNT'
  /** The target is disabled; false while no single element matches. */
  | 'DISABLED'
  /** The target is enabled; false while no single element matches. */
  | 'ENABLED'
  /** The target is hidden, or no single element matches. */
  | 'HIDDEN'
  /** The target's visible text (innerText), matched with equals, contains or regex. */
  | 'TEXT'
  /** The window's document title, matched with equals, contains or regex; no target. */
  | 'TITLE'
  /** The window's URL, matched with equals, contains or regex; no target. */
  | 'URL'
  /** The value of the target input, textarea or select, matched with equals, contains or regex. */
  | 'VALUE'
  /** The target is visible; false while no single element matches. */
  | 'VISIBLE';

/** How a screenshot is encoded. */
export type ImageFormat =
  /** Lossy JPEG: smaller; `quality` sets the trade-off. */
  | 'JPEG'
  /** Lossless PNG (the default). */
  | 'PNG';

/** Give `main` (an app entry script or folder) or `executablePath`, or both. */
export type LaunchInput = {
  /** Extra arguments after the entry script. */
  args?: Array<string> | null | undefined;
  /** The app's working directory; default: the server's. */
  cwd?: string | null | undefined;
  /** Added to the server environment. */
  env?: Array<EnvVar> | null | undefined;
  /** An Electron binary or packaged app; default: --electron, ELECTRON_PATH, the app's own electron package. */
  executablePath?: string | null | undefined;
  /** Install the fixed native hooks before the app's main runs (needs `main`): trays and start-up notifications are seen from the first line. */
  instrumentNative?: boolean | null | undefined;
  /** The app's entry script or folder; relative paths resolve against `cwd`. LAUNCH_FAILED when it does not exist. */
  main?: string | null | undefined;
  /** Default 30000, clamped to 1000..120000. */
  timeoutMs?: number | null | undefined;
};

/** How dangerous an operation is, scored on the resolved target before the rules run; rules can match on it, and with no matching rule it picks the decision (built in: LOW ALLOW, MEDIUM ALLOW, HIGH ASK, CRITICAL DENY). */
export type RiskTier =
  /** Arbitrary code (`eval`, `evalMain`, `evalRenderer`, `evaluate`, `invokeIpc`), pointer operations at screen coordinates (`mouseClick`, `mouseMove`, `mouseDown`, `mouseUp`, `mouseWheel`), and `click`, `dblclick` or `tap` with a `position`. */
  | 'CRITICAL'
  /** An action that uses what it acts on — `click`, `dblclick`, `tap`, `fill`, `type`, `press`, `selectOption`, `setChecked`, `setInputFiles`, `dragTo` on a page element, invoking a menu or context-menu item, clicking a tray — when a word of the target's name starts with one of the policy's `destructiveWords`. */
  | 'HIGH'
  /** Reads: Query fields as explainPolicy weighs them (reads themselves are not put to the policy), and approve and deny as the audit records them. */
  | 'LOW'
  /** Any other mutation: it changes the app, but nothing marks it as dangerous. */
  | 'MEDIUM';

/** What happened to a session. */
export type SessionEventType =
  /** The app process was ended by a signal Stagegraph did not send; see `exit`. */
  | 'CRASHED'
  /** Stagegraph let go of an attached or injected app, which keeps running. */
  | 'DETACHED'
  /** The connection to an attached or injected app was lost; the app may still run. */
  | 'DISCONNECTED'
  /** The app process exited on its own; `exit.code` says how. */
  | 'EXITED'
  /** Cluster mode, to a subscriber on another replica: the session's owner lost its lease (killed, paused, cut off) or restarted; status LOST, and the subscription ends. */
  | 'LOST'
  /** A window's renderer crashed; the session and its other windows live on. */
  | 'RENDERER_CRASHED'
  /** The session was created (its status is still STARTING). */
  | 'STARTED'
  /** The app ended after stop or forceKill (or server shutdown); status STOPPED. */
  | 'STOPPED'
  /** A window closed; its refs are forgotten. */
  | 'WINDOW_CLOSED'
  /** A window opened; `window` says which. */
  | 'WINDOW_OPENED';

/** STARTING until the first window shows; CRASHED when killed by a signal nobody here sent; DISCONNECTED when the connection to an attached app was lost (the app may still run); DETACHED once Stagegraph let go of an attached app, which keeps running. */
export type SessionStatus =
  /** The app process was ended by a signal Stagegraph did not send (kill -9, OOM killer, segfault); see `exit`. */
  | 'CRASHED'
  /** Stagegraph let go of an attached or injected app (detach, or server shutdown); it keeps running. */
  | 'DETACHED'
  /** The connection to an attached or injected app was lost; the app may still run. */
  | 'DISCONNECTED'
  /** The app process exited on its own; see `exit.code`. */
  | 'EXITED'
  /** Cluster mode: the replica that owned it lost its lease (killed, paused, cut off) or restarted; operations on it answer SESSION_LOST. */
  | 'LOST'
  /** Live: it can be driven, read and watched. */
  | 'RUNNING'
  /** Reached, but its first window has not opened yet (at most the launch timeout). */
  | 'STARTING'
  /** Ended by stop or forceKill (or server shutdown) of an app Stagegraph started. */
  | 'STOPPED';

/** One element, named exactly one way: a ref from a snapshot (preferred), a CSS selector, a test id, a role with an optional accessible name, visible text, or a query selector (the same language on every transport). */
export type TargetInput = {
  /** Whole-string match for name (default true) and text. */
  exact?: boolean | null | undefined;
  /** With `role`: the accessible name. */
  name?: string | null | undefined;
  /** Zero-based pick when several match. */
  nth?: number | null | undefined;
  /** A query selector, resolved over the window's snapshot the same way on Electron, Chromium and desktop windows: predicates `role=button name="Save"` (exact), `name~="sav"` (contains, any case), `text=`/`text~=` (name or value), `enabled=`, `visible=`, `testId=`, `atspiPath=`, ANDed; `A >> B` (B inside the one match of A); `X right-of Y` (also left-of, above, below, near: nearest to the one anchor Y); `A ?? B` (B only when A matches nothing). SELECTOR_SYNTAX names the column of a mistake. The action's `resolvedBy` says how it was found. */
  query?: string | null | undefined;
  /** A ref from a snapshot (e12): the preferred way, and it knows its window. REF_STALE when its element has left the page. */
  ref?: string | number | null | undefined;
  /** An ARIA role, e.g. button, textbox, link. */
  role?: string | null | undefined;
  /** A CSS selector (Playwright's selector engines, such as xpath=, also work). */
  selector?: string | null | undefined;
  /** The data-testid attribute. */
  testId?: string | null | undefined;
  /** Visible text (substring, case-insensitive unless `exact`). */
  text?: string | null | undefined;
  /** Search only inside this element. */
  within?: TargetInput | null | undefined;
};

export type ClickMutationVariables = Exact<{
  session?: string | number | null | undefined;
  target: TargetInput;
  timeoutMs?: number | null | undefined;
}>;


export type ClickMutation = { click: { target: { ref: string, role: string, name: string } | null, diff: { outline: string } | null } | null };

export type FillMutationVariables = Exact<{
  session?: string | number | null | undefined;
  target: TargetInput;
  value: string;
  secret?: boolean | null | undefined;
  timeoutMs?: number | null | undefined;
}>;


export type FillMutation = { fill: { target: { ref: string, role: string, name: string } | null } | null };

export type ExpectMutationVariables = Exact<{
  session?: string | number | null | undefined;
  kind: ExpectKind;
  target?: TargetInput | null | undefined;
  contains?: string | null | undefined;
  equals?: string | null | undefined;
  not?: boolean | null | undefined;
  timeoutMs?: number | null | undefined;
}>;


export type ExpectMutation = { expect: { kind: ExpectKind, actual: string } | null };

export type SubmitFormStepsMutationVariables = Exact<{
  session?: string | number | null | undefined;
  field: TargetInput;
  value: string;
  submit: TargetInput;
  result: TargetInput;
  expected: string;
}>;


export type SubmitFormStepsMutation = { fill: { target: { ref: string } | null } | null, click: { target: { ref: string } | null, diff: { outline: string } | null } | null, expect: { actual: string } | null };

export type PendingApprovalsQueryVariables = Exact<{ [key: string]: never; }>;


export type PendingApprovalsQuery = { pendingApprovals: Array<{ id: string, operation: string, risk: RiskTier, reasons: Array<string>, expiresAt: string, target: { role: string, name: string } | null }> };

export type ApproveMutationVariables = Exact<{
  id: string | number;
  scope?: ApprovalScope | null | undefined;
}>;


export type ApproveMutation = { approve: { status: string, decidedBy: string, scope: ApprovalScope | null } | null };

export type DenyMutationVariables = Exact<{
  id: string | number;
  reason?: string | null | undefined;
}>;


export type DenyMutation = { deny: { status: string, decidedBy: string, reason: string | null } | null };

export type LaunchMutationVariables = Exact<{
  input: LaunchInput;
}>;


export type LaunchMutation = { launch: { id: string, status: SessionStatus, transport: string, app: { name: string | null, standIn: boolean } } | null };

export type StopMutationVariables = Exact<{
  id?: string | number | null | undefined;
  graceMs?: number | null | undefined;
}>;


export type StopMutation = { stop: { id: string, status: SessionStatus } | null };

export type SessionHeadlineFragment = { id: string, status: SessionStatus, transport: string, app: { name: string | null, standIn: boolean } };

export type SessionsQueryVariables = Exact<{ [key: string]: never; }>;


export type SessionsQuery = { sessions: Array<{ id: string, status: SessionStatus, transport: string, app: { name: string | null, standIn: boolean } }> };

export type OutlineQueryVariables = Exact<{
  session?: string | number | null | undefined;
  interactiveOnly?: boolean | null | undefined;
  budgetTokens?: number | null | undefined;
  within?: string | number | null | undefined;
}>;


export type OutlineQuery = { session: { id: string, activeWindow: { id: string, title: string, snapshot: { id: string, outline: string, hasMore: boolean, endCursor: string | null } } | null } | null };

export type ScreenshotQueryVariables = Exact<{
  session?: string | number | null | undefined;
  target?: TargetInput | null | undefined;
  format?: ImageFormat | null | undefined;
  save?: boolean | null | undefined;
}>;


export type ScreenshotQuery = { session: { activeWindow: { screenshot: { base64: string, format: ImageFormat, width: number, height: number, byteLength: number, path: string | null } } | null } | null };

export type ConsoleEventsSubscriptionVariables = Exact<{
  session?: string | number | null | undefined;
  textContains?: string | null | undefined;
  replay?: boolean | null | undefined;
}>;


export type ConsoleEventsSubscription = { console: { droppedBefore: number, entry: { seq: number, sessionId: string, type: string, text: string, time: string } } };

export type SessionEventsSubscriptionVariables = Exact<{
  session?: string | number | null | undefined;
}>;


export type SessionEventsSubscription = { sessionEvents: { droppedBefore: number, sessionId: string, type: SessionEventType, status: SessionStatus, time: string } };

export const SessionHeadlineFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionHeadline"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"app"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"standIn"}}]}}]}}]} as unknown as DocumentNode<SessionHeadlineFragment, unknown>;
export const ClickDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Click"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"target"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"click"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"target"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"diff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outline"}}]}}]}}]}}]} as unknown as DocumentNode<ClickMutation, ClickMutationVariables>;
export const FillDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Fill"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"target"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"value"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"secret"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fill"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"target"}}},{"kind":"Argument","name":{"kind":"Name","value":"value"},"value":{"kind":"Variable","name":{"kind":"Name","value":"value"}}},{"kind":"Argument","name":{"kind":"Name","value":"secret"},"value":{"kind":"Variable","name":{"kind":"Name","value":"secret"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ref"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<FillMutation, FillMutationVariables>;
export const ExpectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Expect"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ExpectKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"target"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"contains"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"equals"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"not"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expect"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"target"}}},{"kind":"Argument","name":{"kind":"Name","value":"contains"},"value":{"kind":"Variable","name":{"kind":"Name","value":"contains"}}},{"kind":"Argument","name":{"kind":"Name","value":"equals"},"value":{"kind":"Variable","name":{"kind":"Name","value":"equals"}}},{"kind":"Argument","name":{"kind":"Name","value":"not"},"value":{"kind":"Variable","name":{"kind":"Name","value":"not"}}},{"kind":"Argument","name":{"kind":"Name","value":"timeoutMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"timeoutMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"actual"}}]}}]}}]} as unknown as DocumentNode<ExpectMutation, ExpectMutationVariables>;
export const SubmitFormStepsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SubmitFormSteps"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"field"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"value"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"submit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"result"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expected"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fill"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"field"}}},{"kind":"Argument","name":{"kind":"Name","value":"value"},"value":{"kind":"Variable","name":{"kind":"Name","value":"value"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ref"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"click"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"submit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ref"}}]}},{"kind":"Field","name":{"kind":"Name","value":"diff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outline"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"expect"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"EnumValue","value":"TEXT"}},{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"result"}}},{"kind":"Argument","name":{"kind":"Name","value":"contains"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expected"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actual"}}]}}]}}]} as unknown as DocumentNode<SubmitFormStepsMutation, SubmitFormStepsMutationVariables>;
export const PendingApprovalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingApprovals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pendingApprovals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"risk"}},{"kind":"Field","name":{"kind":"Name","value":"reasons"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<PendingApprovalsQuery, PendingApprovalsQueryVariables>;
export const ApproveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Approve"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ApprovalScope"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"approve"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]} as unknown as DocumentNode<ApproveMutation, ApproveMutationVariables>;
export const DenyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Deny"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deny"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]} as unknown as DocumentNode<DenyMutation, DenyMutationVariables>;
export const LaunchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Launch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LaunchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"launch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionHeadline"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionHeadline"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"app"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"standIn"}}]}}]}}]} as unknown as DocumentNode<LaunchMutation, LaunchMutationVariables>;
export const StopDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Stop"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"graceMs"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stop"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"graceMs"},"value":{"kind":"Variable","name":{"kind":"Name","value":"graceMs"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<StopMutation, StopMutationVariables>;
export const SessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Sessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionHeadline"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionHeadline"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"app"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"standIn"}}]}}]}}]} as unknown as DocumentNode<SessionsQuery, SessionsQueryVariables>;
export const OutlineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Outline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"interactiveOnly"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"budgetTokens"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"within"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"activeWindow"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"snapshot"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"interactiveOnly"},"value":{"kind":"Variable","name":{"kind":"Name","value":"interactiveOnly"}}},{"kind":"Argument","name":{"kind":"Name","value":"budgetTokens"},"value":{"kind":"Variable","name":{"kind":"Name","value":"budgetTokens"}}},{"kind":"Argument","name":{"kind":"Name","value":"within"},"value":{"kind":"Variable","name":{"kind":"Name","value":"within"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"outline"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OutlineQuery, OutlineQueryVariables>;
export const ScreenshotDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Screenshot"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"target"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TargetInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageFormat"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"save"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"activeWindow"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"screenshot"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"target"}}},{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"save"},"value":{"kind":"Variable","name":{"kind":"Name","value":"save"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"base64"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"width"}},{"kind":"Field","name":{"kind":"Name","value":"height"}},{"kind":"Field","name":{"kind":"Name","value":"byteLength"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ScreenshotQuery, ScreenshotQueryVariables>;
export const ConsoleEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"textContains"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"replay"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"console"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}},{"kind":"Argument","name":{"kind":"Name","value":"textContains"},"value":{"kind":"Variable","name":{"kind":"Name","value":"textContains"}}},{"kind":"Argument","name":{"kind":"Name","value":"replay"},"value":{"kind":"Variable","name":{"kind":"Name","value":"replay"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"droppedBefore"}},{"kind":"Field","name":{"kind":"Name","value":"entry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleEventsSubscription, ConsoleEventsSubscriptionVariables>;
export const SessionEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"session"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"session"},"value":{"kind":"Variable","name":{"kind":"Name","value":"session"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"droppedBefore"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]} as unknown as DocumentNode<SessionEventsSubscription, SessionEventsSubscriptionVariables>;