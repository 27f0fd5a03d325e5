import type { Dialog } from 'playwright-core';
import type {
  DialogControl,
  DialogDecision,
  DialogSeen,
  DialogType,
} from '../../contract/renderer-control.js';

/** What a dialog met before anyone set a policy: dismissed, so the app never hangs waiting for a person. */
const DISMISS: DialogDecision = { accept: false };

/**
 * Answers every JS dialog (alert, confirm, prompt, beforeunload) of the pages handed to `handle`, as the
 * current decider says, and reports what was done. Playwright holds a dialog open until it is answered,
 * so answering is never optional here.
 */
export class PlaywrightDialogs implements DialogControl {
  readonly #report: (dialog: DialogSeen, decision: DialogDecision) => void;
  #decide: (dialog: DialogSeen) => DialogDecision = () => DISMISS;

  constructor(report: (dialog: DialogSeen, decision: DialogDecision) => void) {
    this.#report = report;
  }

  decideWith(decide: (dialog: DialogSeen) => DialogDecision): void {
    this.#decide = decide;
  }

  handle(dialog: Dialog, windowId: string | null): void {
    const seen: DialogSeen = {
      type: dialog.type() as DialogType,
      message: dialog.message(),
      defaultValue: dialog.defaultValue(),
      windowId,
    };
    let decision = DISMISS;
    try {
      decision = this.#decide(seen);
    } catch {
      // A failing decider must not leave the page blocked on its dialog.
    }
    const answered = decision.accept
      ? dialog.accept(seen.type === 'prompt' ? (decision.promptText ?? seen.defaultValue) : undefined)
      : dialog.dismiss();
    // A page that closes while its dialog is up takes the dialog with it; nothing is left to answer.
    void answered.catch(() => undefined);
    this.#report(seen, decision);
  }
}
