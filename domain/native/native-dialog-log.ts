import type { DialogRule, NativeDialogCall } from '../../transports/contract/native.js';
import { SequencedLog } from '../bounded/sequenced-log.js';

/** Native dialog calls kept per session; older ones are dropped and counted in `overflowed`. */
export const NATIVE_DIALOG_CAPACITY = 200;
/** A policy longer than this is a mistake, and every call scans it in the app's main process. */
export const MAX_DIALOG_RULES = 50;

export interface NativeDialogEntry extends Omit<NativeDialogCall, 'time'> {
  readonly seq: number;
  readonly sessionId: string;
  readonly time: Date;
}

/** What the app's native dialogs were asked and answered; the policy itself lives in the main process. */
export class NativeDialogLog {
  readonly #sessionId: string;
  readonly #log = new SequencedLog<NativeDialogEntry>(NATIVE_DIALOG_CAPACITY);
  /** The rules last sent; `once` rules the app has used up are still listed here. */
  policy: readonly DialogRule[] = [];

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  get overflowed(): number {
    return this.#log.overflowed;
  }

  record(call: NativeDialogCall): NativeDialogEntry {
    return this.#log.append((seq) => ({
      ...call,
      seq,
      sessionId: this.#sessionId,
      time: new Date(call.time),
    }));
  }

  read(): NativeDialogEntry[] {
    return this.#log.snapshot({}).entries;
  }
}
