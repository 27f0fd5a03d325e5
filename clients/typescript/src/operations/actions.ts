import { graphql } from '../generated/index.js';

/** Clicks a target and answers with the settled effect as outline lines. */
export const ClickDocument = graphql(`
  mutation Click($session: ID, $target: TargetInput!, $timeoutMs: Int) {
    click(session: $session, target: $target, timeoutMs: $timeoutMs) {
      target {
        ref
        role
        name
      }
      diff {
        outline
      }
    }
  }
`);

/** Sets an input's whole value. */
export const FillDocument = graphql(`
  mutation Fill($session: ID, $target: TargetInput!, $value: String!, $secret: Boolean, $timeoutMs: Int) {
    fill(session: $session, target: $target, value: $value, secret: $secret, timeoutMs: $timeoutMs) {
      target {
        ref
        role
        name
      }
    }
  }
`);

/** Waits until a condition holds; EXPECTATION_FAILED with the last actual value after the timeout. */
export const ExpectDocument = graphql(`
  mutation Expect(
    $session: ID
    $kind: ExpectKind!
    $target: TargetInput
    $contains: String
    $equals: String
    $not: Boolean
    $timeoutMs: Int
  ) {
    expect(
      session: $session
      kind: $kind
      target: $target
      contains: $contains
      equals: $equals
      not: $not
      timeoutMs: $timeoutMs
    ) {
      kind
      actual
    }
  }
`);

/**
 * A form submitted as ONE multi-step operation: fill, click, then expect. Each field is a step run in
 * order; after a failed step the later ones fail with STEP_SKIPPED and every outcome stays in `data`.
 */
export const SubmitFormStepsDocument = graphql(`
  mutation SubmitFormSteps(
    $session: ID
    $field: TargetInput!
    $value: String!
    $submit: TargetInput!
    $result: TargetInput!
    $expected: String!
  ) {
    fill(session: $session, target: $field, value: $value) {
      target {
        ref
      }
    }
    click(session: $session, target: $submit) {
      target {
        ref
      }
      diff {
        outline
      }
    }
    expect(session: $session, kind: TEXT, target: $result, contains: $expected) {
      actual
    }
  }
`);
