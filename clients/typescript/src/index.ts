export {
  type ActResult,
  createStagegraphClient,
  type ExpectInput,
  type ExpectOutcome,
  type LaunchedSession,
  type StagegraphClient,
  type StagegraphClientOptions,
  type StepOutcome,
} from './client.js';
export { StagegraphClientError } from './client-error.js';
// The generated module holds the operations' result and variable types (and copies of the documents);
// the named exports below are the curated documents themselves, as written in operations/.
export * from './generated/graphql.js';
export {
  ClickDocument,
  ExpectDocument,
  FillDocument,
  SubmitFormStepsDocument,
} from './operations/actions.js';
export { ApproveDocument, DenyDocument, PendingApprovalsDocument } from './operations/approvals.js';
export { LaunchDocument, StopDocument } from './operations/lifecycle.js';
export { OutlineDocument, ScreenshotDocument, SessionsDocument } from './operations/sessions.js';
export { ConsoleEventsDocument, SessionEventsDocument } from './operations/streams.js';
export type { ExpectStep, Step, StepKind } from './steps.js';
