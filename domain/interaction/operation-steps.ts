import { StagegraphError } from '../../errors/stagegraph-error.js';

/** One mutation field of an operation, as its answer names it. */
export interface Step {
  /** Its response key: the alias, else the field's name — what the answer's `data` and error paths show. */
  readonly key: string;
  /** The mutation field it calls. */
  readonly field: string;
  /**
   * Runs even after an earlier step failed: an answer to someone else's approval request (which would
   * otherwise wait until it times out) or the end of a session (as a `finally`, so a failed step never
   * leaves an app running). Its own failure still stops the steps after it.
   */
  readonly alwaysRuns: boolean;
}

/** The step that failed first, as every step it stopped reports it. */
export interface FailedStep {
  readonly key: string;
  readonly field: string;
  /** Its registered code; INTERNAL for a failure the server did not expect. */
  readonly code: string;
}

/**
 * The steps of one mutation operation. GraphQL runs a mutation's fields one after another, each only once
 * the one before has finished; so after a failed step, the rest of the document was written for a page that
 * is not there, and running it would act on a belief the agent no longer holds. The first failure is kept,
 * and every later step answers STEP_SKIPPED naming it instead of running, so the agent learns the fate of
 * every step from one answer.
 */
export class OperationSteps {
  #failed: FailedStep | null = null;

  /** Runs `perform` as `step`, or refuses it without calling `perform` when an earlier step failed. */
  async run<T>(step: Step, perform: () => Promise<T> | T): Promise<T> {
    const failed = this.#failed;
    if (failed && !step.alwaysRuns) throw skipped(step, failed);
    try {
      return await perform();
    } catch (error) {
      this.#failed ??= {
        key: step.key,
        field: step.field,
        code: error instanceof StagegraphError ? error.code : 'INTERNAL',
      };
      throw error;
    }
  }
}

function skipped(step: Step, failed: FailedStep): StagegraphError {
  return new StagegraphError(
    'STEP_SKIPPED',
    `Step "${step.key}" (${step.field}) did not run: step "${failed.key}" (${failed.field}) failed before it with ${failed.code}.`,
    {
      hint: `Read the error of step "${failed.key}" (at path ["${failed.key}"]) and deal with it, then send "${step.key}" and the steps after it again; the steps before "${failed.key}" already ran.`,
      details: { failedStep: failed.key, failedField: failed.field, failedCode: failed.code },
    },
  );
}
