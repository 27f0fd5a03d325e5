import type { DialogRule, NativeDialogCall } from '../../transports/contract/native.js';
import { RingBuffer } from '../bounded/ring-buffer.js';

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
  readonly #ring = new RingBuffer<NativeDialogEntry>(NATIVE_DIALOG_CAPACITY);
  #seq = 0;
  /** The rules last sent; `once` rules the app has used up are still listed here. */
  policy: readonly DialogRule[] = [];

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  get overflowed(): number {
    return this.#ring.overflowed;
  }

  record(call: NativeDialogCall): NativeDialogEntry {
    this.#seq += 1;
    const entry = { ...call, seq: this.#seq, sessionId: this.#sessionId, time: new Date(call.time) };
    this.#ring.push(entry);
    return entry;
  }

  read(): NativeDialogEntry[] {
    return this.#ring.toArray();
  }
}
