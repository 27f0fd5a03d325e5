import type { DialogDecision, DialogSeen, DialogType } from '../../transports/contract/renderer-control.js';

export type DialogAction = 'ACCEPT' | 'DISMISS';

export interface DialogPolicySpec {
  /** What every dialog type without its own rule gets. */
  readonly default: DialogAction;
  readonly alert?: DialogAction | null;
  readonly confirm?: DialogAction | null;
  readonly prompt?: DialogAction | null;
  readonly beforeunload?: DialogAction | null;
  /** What an accepted prompt answers; its default value when absent. */
  readonly promptText?: string | null;
  /** Applies to the next dialog only, then the policy reverts to dismissing everything. */
  readonly oneShot?: boolean;
}

/** The policy in force before anyone sets one: dismiss everything, so an app never hangs on a dialog. */
export const DISMISS_ALL: DialogPolicySpec = { default: 'DISMISS' };

/** A session's dialog policy, answering synchronously as the transport asks. */
export class DialogPolicy {
  #spec: DialogPolicySpec = DISMISS_ALL;

  get current(): DialogPolicySpec {
    return this.#spec;
  }

  set(spec: DialogPolicySpec): DialogPolicySpec {
    this.#spec = spec;
    return spec;
  }

  decide(dialog: DialogSeen): DialogDecision {
    const spec = this.#spec;
    if (spec.oneShot) this.#spec = DISMISS_ALL;
    const action = spec[dialog.type as DialogType] ?? spec.default;
    if (action === 'DISMISS') return { accept: false };
    if (dialog.type !== 'prompt' || spec.promptText == null) return { accept: true };
    return { accept: true, promptText: spec.promptText };
  }
}
