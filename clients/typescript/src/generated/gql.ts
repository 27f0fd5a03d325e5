/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation Click($session: ID, $target: TargetInput!, $timeoutMs: Int) {\n    click(session: $session, target: $target, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n      diff {\n        outline\n      }\n    }\n  }\n": typeof types.ClickDocument,
    "\n  mutation Fill($session: ID, $target: TargetInput!, $value: String!, $secret: Boolean, $timeoutMs: Int) {\n    fill(session: $session, target: $target, value: $value, secret: $secret, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n    }\n  }\n": typeof types.FillDocument,
    "\n  mutation Expect(\n    $session: ID\n    $kind: ExpectKind!\n    $target: TargetInput\n    $contains: String\n    $equals: String\n    $not: Boolean\n    $timeoutMs: Int\n  ) {\n    expect(\n      session: $session\n      kind: $kind\n      target: $target\n      contains: $contains\n      equals: $equals\n      not: $not\n      timeoutMs: $timeoutMs\n    ) {\n      kind\n      actual\n    }\n  }\n": typeof types.ExpectDocument,
    "\n  mutation SubmitFormSteps(\n    $session: ID\n    $field: TargetInput!\n    $value: String!\n    $submit: TargetInput!\n    $result: TargetInput!\n    $expected: String!\n  ) {\n    fill(session: $session, target: $field, value: $value) {\n      target {\n        ref\n      }\n    }\n    click(session: $session, target: $submit) {\n      target {\n        ref\n      }\n      diff {\n        outline\n      }\n    }\n    expect(session: $session, kind: TEXT, target: $result, contains: $expected) {\n      actual\n    }\n  }\n": typeof types.SubmitFormStepsDocument,
    "\n  query PendingApprovals {\n    pendingApprovals {\n      id\n      operation\n      risk\n      reasons\n      expiresAt\n      target {\n        role\n        name\n      }\n    }\n  }\n": typeof types.PendingApprovalsDocument,
    "\n  mutation Approve($id: ID!, $scope: ApprovalScope) {\n    approve(id: $id, scope: $scope) {\n      status\n      decidedBy\n      scope\n    }\n  }\n": typeof types.ApproveDocument,
    "\n  mutation Deny($id: ID!, $reason: String) {\n    deny(id: $id, reason: $reason) {\n      status\n      decidedBy\n      reason\n    }\n  }\n": typeof types.DenyDocument,
    "\n  mutation Launch($input: LaunchInput!) {\n    launch(input: $input) {\n      ...SessionHeadline\n    }\n  }\n": typeof types.LaunchDocument,
    "\n  mutation Stop($id: ID, $graceMs: Int) {\n    stop(id: $id, graceMs: $graceMs) {\n      id\n      status\n    }\n  }\n": typeof types.StopDocument,
    "\n  fragment SessionHeadline on Session {\n    id\n    status\n    transport\n    app {\n      name\n      standIn\n    }\n  }\n": typeof types.SessionHeadlineFragmentDoc,
    "\n  query Sessions {\n    sessions {\n      ...SessionHeadline\n    }\n  }\n": typeof types.SessionsDocument,
    "\n  query Outline($session: ID, $interactiveOnly: Boolean, $budgetTokens: Int, $within: ID) {\n    session(id: $session) {\n      id\n      activeWindow {\n        id\n        title\n        snapshot(interactiveOnly: $interactiveOnly, budgetTokens: $budgetTokens, within: $within) {\n          id\n          outline\n          hasMore\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.OutlineDocument,
    "\n  query Screenshot($session: ID, $target: TargetInput, $format: ImageFormat, $save: Boolean) {\n    session(id: $session) {\n      activeWindow {\n        screenshot(target: $target, format: $format, save: $save) {\n          base64\n          format\n          width\n          height\n          byteLength\n          path\n        }\n      }\n    }\n  }\n": typeof types.ScreenshotDocument,
    "\n  subscription ConsoleEvents($session: ID, $textContains: String, $replay: Boolean) {\n    console(session: $session, textContains: $textContains, replay: $replay) {\n      droppedBefore\n      entry {\n        seq\n        sessionId\n        type\n        text\n        time\n      }\n    }\n  }\n": typeof types.ConsoleEventsDocument,
    "\n  subscription SessionEvents($session: ID) {\n    sessionEvents(session: $session) {\n      droppedBefore\n      sessionId\n      type\n      status\n      time\n    }\n  }\n": typeof types.SessionEventsDocument,
};
const documents: Documents = {
    "\n  mutation Click($session: ID, $target: TargetInput!, $timeoutMs: Int) {\n    click(session: $session, target: $target, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n      diff {\n        outline\n      }\n    }\n  }\n": types.ClickDocument,
    "\n  mutation Fill($session: ID, $target: TargetInput!, $value: String!, $secret: Boolean, $timeoutMs: Int) {\n    fill(session: $session, target: $target, value: $value, secret: $secret, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n    }\n  }\n": types.FillDocument,
    "\n  mutation Expect(\n    $session: ID\n    $kind: ExpectKind!\n    $target: TargetInput\n    $contains: String\n    $equals: String\n    $not: Boolean\n    $timeoutMs: Int\n  ) {\n    expect(\n      session: $session\n      kind: $kind\n      target: $target\n      contains: $contains\n      equals: $equals\n      not: $not\n      timeoutMs: $timeoutMs\n    ) {\n      kind\n      actual\n    }\n  }\n": types.ExpectDocument,
    "\n  mutation SubmitFormSteps(\n    $session: ID\n    $field: TargetInput!\n    $value: String!\n    $submit: TargetInput!\n    $result: TargetInput!\n    $expected: String!\n  ) {\n    fill(session: $session, target: $field, value: $value) {\n      target {\n        ref\n      }\n    }\n    click(session: $session, target: $submit) {\n      target {\n        ref\n      }\n      diff {\n        outline\n      }\n    }\n    expect(session: $session, kind: TEXT, target: $result, contains: $expected) {\n      actual\n    }\n  }\n": types.SubmitFormStepsDocument,
    "\n  query PendingApprovals {\n    pendingApprovals {\n      id\n      operation\n      risk\n      reasons\n      expiresAt\n      target {\n        role\n        name\n      }\n    }\n  }\n": types.PendingApprovalsDocument,
    "\n  mutation Approve($id: ID!, $scope: ApprovalScope) {\n    approve(id: $id, scope: $scope) {\n      status\n      decidedBy\n      scope\n    }\n  }\n": types.ApproveDocument,
    "\n  mutation Deny($id: ID!, $reason: String) {\n    deny(id: $id, reason: $reason) {\n      status\n      decidedBy\n      reason\n    }\n  }\n": types.DenyDocument,
    "\n  mutation Launch($input: LaunchInput!) {\n    launch(input: $input) {\n      ...SessionHeadline\n    }\n  }\n": types.LaunchDocument,
    "\n  mutation Stop($id: ID, $graceMs: Int) {\n    stop(id: $id, graceMs: $graceMs) {\n      id\n      status\n    }\n  }\n": types.StopDocument,
    "\n  fragment SessionHeadline on Session {\n    id\n    status\n    transport\n    app {\n      name\n      standIn\n    }\n  }\n": types.SessionHeadlineFragmentDoc,
    "\n  query Sessions {\n    sessions {\n      ...SessionHeadline\n    }\n  }\n": types.SessionsDocument,
    "\n  query Outline($session: ID, $interactiveOnly: Boolean, $budgetTokens: Int, $within: ID) {\n    session(id: $session) {\n      id\n      activeWindow {\n        id\n        title\n        snapshot(interactiveOnly: $interactiveOnly, budgetTokens: $budgetTokens, within: $within) {\n          id\n          outline\n          hasMore\n          endCursor\n        }\n      }\n    }\n  }\n": types.OutlineDocument,
    "\n  query Screenshot($session: ID, $target: TargetInput, $format: ImageFormat, $save: Boolean) {\n    session(id: $session) {\n      activeWindow {\n        screenshot(target: $target, format: $format, save: $save) {\n          base64\n          format\n          width\n          height\n          byteLength\n          path\n        }\n      }\n    }\n  }\n": types.ScreenshotDocument,
    "\n  subscription ConsoleEvents($session: ID, $textContains: String, $replay: Boolean) {\n    console(session: $session, textContains: $textContains, replay: $replay) {\n      droppedBefore\n      entry {\n        seq\n        sessionId\n        type\n        text\n        time\n      }\n    }\n  }\n": types.ConsoleEventsDocument,
    "\n  subscription SessionEvents($session: ID) {\n    sessionEvents(session: $session) {\n      droppedBefore\n      sessionId\n      type\n      status\n      time\n    }\n  }\n": types.SessionEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Click($session: ID, $target: TargetInput!, $timeoutMs: Int) {\n    click(session: $session, target: $target, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n      diff {\n        outline\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Click($session: ID, $target: TargetInput!, $timeoutMs: Int) {\n    click(session: $session, target: $target, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n      diff {\n        outline\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Fill($session: ID, $target: TargetInput!, $value: String!, $secret: Boolean, $timeoutMs: Int) {\n    fill(session: $session, target: $target, value: $value, secret: $secret, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Fill($session: ID, $target: TargetInput!, $value: String!, $secret: Boolean, $timeoutMs: Int) {\n    fill(session: $session, target: $target, value: $value, secret: $secret, timeoutMs: $timeoutMs) {\n      target {\n        ref\n        role\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Expect(\n    $session: ID\n    $kind: ExpectKind!\n    $target: TargetInput\n    $contains: String\n    $equals: String\n    $not: Boolean\n    $timeoutMs: Int\n  ) {\n    expect(\n      session: $session\n      kind: $kind\n      target: $target\n      contains: $contains\n      equals: $equals\n      not: $not\n      timeoutMs: $timeoutMs\n    ) {\n      kind\n      actual\n    }\n  }\n"): (typeof documents)["\n  mutation Expect(\n    $session: ID\n    $kind: ExpectKind!\n    $target: TargetInput\n    $contains: String\n    $equals: String\n    $not: Boolean\n    $timeoutMs: Int\n  ) {\n    expect(\n      session: $session\n      kind: $kind\n      target: $target\n      contains: $contains\n      equals: $equals\n      not: $not\n      timeoutMs: $timeoutMs\n    ) {\n      kind\n      actual\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubmitFormSteps(\n    $session: ID\n    $field: TargetInput!\n    $value: String!\n    $submit: TargetInput!\n    $result: TargetInput!\n    $expected: String!\n  ) {\n    fill(session: $session, target: $field, value: $value) {\n      target {\n        ref\n      }\n    }\n    click(session: $session, target: $submit) {\n      target {\n        ref\n      }\n      diff {\n        outline\n      }\n    }\n    expect(session: $session, kind: TEXT, target: $result, contains: $expected) {\n      actual\n    }\n  }\n"): (typeof documents)["\n  mutation SubmitFormSteps(\n    $session: ID\n    $field: TargetInput!\n    $value: String!\n    $submit: TargetInput!\n    $result: TargetInput!\n    $expected: String!\n  ) {\n    fill(session: $session, target: $field, value: $value) {\n      target {\n        ref\n      }\n    }\n    click(session: $session, target: $submit) {\n      target {\n        ref\n      }\n      diff {\n        outline\n      }\n    }\n    expect(session: $session, kind: TEXT, target: $result, contains: $expected) {\n      actual\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingApprovals {\n    pendingApprovals {\n      id\n      operation\n      risk\n      reasons\n      expiresAt\n      target {\n        role\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query PendingApprovals {\n    pendingApprovals {\n      id\n      operation\n      risk\n      reasons\n      expiresAt\n      target {\n        role\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Approve($id: ID!, $scope: ApprovalScope) {\n    approve(id: $id, scope: $scope) {\n      status\n      decidedBy\n      scope\n    }\n  }\n"): (typeof documents)["\n  mutation Approve($id: ID!, $scope: ApprovalScope) {\n    approve(id: $id, scope: $scope) {\n      status\n      decidedBy\n      scope\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Deny($id: ID!, $reason: String) {\n    deny(id: $id, reason: $reason) {\n      status\n      decidedBy\n      reason\n    }\n  }\n"): (typeof documents)["\n  mutation Deny($id: ID!, $reason: String) {\n    deny(id: $id, reason: $reason) {\n      status\n      decidedBy\n      reason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Launch($input: LaunchInput!) {\n    launch(input: $input) {\n      ...SessionHeadline\n    }\n  }\n"): (typeof documents)["\n  mutation Launch($input: LaunchInput!) {\n    launch(input: $input) {\n      ...SessionHeadline\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Stop($id: ID, $graceMs: Int) {\n    stop(id: $id, graceMs: $graceMs) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation Stop($id: ID, $graceMs: Int) {\n    stop(id: $id, graceMs: $graceMs) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionHeadline on Session {\n    id\n    status\n    transport\n    app {\n      name\n      standIn\n    }\n  }\n"): (typeof documents)["\n  fragment SessionHeadline on Session {\n    id\n    status\n    transport\n    app {\n      name\n      standIn\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions {\n    sessions {\n      ...SessionHeadline\n    }\n  }\n"): (typeof documents)["\n  query Sessions {\n    sessions {\n      ...SessionHeadline\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Outline($session: ID, $interactiveOnly: Boolean, $budgetTokens: Int, $within: ID) {\n    session(id: $session) {\n      id\n      activeWindow {\n        id\n        title\n        snapshot(interactiveOnly: $interactiveOnly, budgetTokens: $budgetTokens, within: $within) {\n          id\n          outline\n          hasMore\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Outline($session: ID, $interactiveOnly: Boolean, $budgetTokens: Int, $within: ID) {\n    session(id: $session) {\n      id\n      activeWindow {\n        id\n        title\n        snapshot(interactiveOnly: $interactiveOnly, budgetTokens: $budgetTokens, within: $within) {\n          id\n          outline\n          hasMore\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Screenshot($session: ID, $target: TargetInput, $format: ImageFormat, $save: Boolean) {\n    session(id: $session) {\n      activeWindow {\n        screenshot(target: $target, format: $format, save: $save) {\n          base64\n          format\n          width\n          height\n          byteLength\n          path\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Screenshot($session: ID, $target: TargetInput, $format: ImageFormat, $save: Boolean) {\n    session(id: $session) {\n      activeWindow {\n        screenshot(target: $target, format: $format, save: $save) {\n          base64\n          format\n          width\n          height\n          byteLength\n          path\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConsoleEvents($session: ID, $textContains: String, $replay: Boolean) {\n    console(session: $session, textContains: $textContains, replay: $replay) {\n      droppedBefore\n      entry {\n        seq\n        sessionId\n        type\n        text\n        time\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ConsoleEvents($session: ID, $textContains: String, $replay: Boolean) {\n    console(session: $session, textContains: $textContains, replay: $replay) {\n      droppedBefore\n      entry {\n        seq\n        sessionId\n        type\n        text\n        time\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SessionEvents($session: ID) {\n    sessionEvents(session: $session) {\n      droppedBefore\n      sessionId\n      type\n      status\n      time\n    }\n  }\n"): (typeof documents)["\n  subscription SessionEvents($session: ID) {\n    sessionEvents(session: $session) {\n      droppedBefore\n      sessionId\n      type\n      status\n      time\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;