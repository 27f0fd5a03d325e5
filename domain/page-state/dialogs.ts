import type {
  DialogControl,
  DialogDecision,
  DialogSeen,
} from '../../transports/contract/renderer-control.js';
import { SequencedLog } from '../bounded/sequenced-log.js';
import type { EventHub } from '../events/event-hub.js';
import { type DialogAction, DialogPolicy, type DialogPolicySpec } from './dialog-policy.js';

/** Dialogs kept per session: they come one at a time, a person's pace, so a small ring holds hours. */
export const DIALOG_CAPACITY = 200;

export interface DialogEntry extends DialogSeen {
  readonly seq: number;
  readonly sessionId: string;
  readonly time: Date;
  readonly action: DialogAction;
  /** What an accepted prompt answered. */
  readonly promptText: string | null;
}

/** A session's dialog policy and the record of every dialog it answered. */
/** The hub topic dialogs publish on. */
export type DialogTopics = {
  dialog: DialogEntry;
};

export class SessionDialogs {
  readonly log = new SequencedLog<DialogEntry>(DIALOG_CAPACITY);
  readonly policy = new DialogPolicy();
  readonly #sessionId: string;
  readonly #hub: EventHub<DialogTopics>;

  constructor(sessionId: string, hub: EventHub<DialogTopics>, control: DialogControl | undefined) {
    this.#sessionId = sessionId;
    this.#hub = hub;
    control?.decideWith((dialog) => this.policy.decide(dialog));
  }

  setPolicy(spec: DialogPolicySpec): DialogPolicySpec {
    return this.policy.set(spec);
  }

  onDialog(dialog: DialogSeen, decision: DialogDecision): DialogEntry {
    const entry = this.log.append((seq) => ({
      ...dialog,
      seq,
      sessionId: this.#sessionId,
      time: new Date(),
      action: decision.accept ? 'ACCEPT' : 'DISMISS',
      promptText:
        decision.accept && dialog.type === 'prompt' ? (decision.promptText ?? dialog.defaultValue) : null,
    }));
    this.#hub.publish('dialog', entry);
    return entry;
  }
}
