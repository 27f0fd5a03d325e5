import type { IpcMessage } from '../../transports/contract/native.js';
import { SequencedLog } from '../bounded/sequenced-log.js';
import { Redactor } from '../governance/redaction/redaction.js';

/** IPC messages kept per session; older ones are dropped and counted in `overflowed`. */
export const IPC_CAPACITY = 500;
/** An allowlist longer than this is a mistake, and every message is matched against it in the app. */
export const MAX_IPC_CHANNELS = 50;

export interface IpcEntry extends Omit<IpcMessage, 'time'> {
  readonly seq: number;
  readonly sessionId: string;
  readonly time: Date;
}

export interface IpcCapture {
  /** Exact channel names, or prefixes ending in `*`; null when capture is off. */
  readonly channels: readonly string[] | null;
  readonly armedAt: Date | null;
}

/**
 * The IPC the app's main process reported, with secrets redacted: the hooks already cut arguments at a
 * size bound, and here the governance Redactor (its default patterns, as the audit log uses) replaces what
 * looks like a credential — by key when the arguments arrived whole, by pattern in any case.
 */
export class IpcLog {
  readonly #sessionId: string;
  readonly #log = new SequencedLog<IpcEntry>(IPC_CAPACITY);
  readonly #redactor = new Redactor();
  capture: IpcCapture = { channels: null, armedAt: null };

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  get overflowed(): number {
    return this.#log.overflowed;
  }

  record(message: IpcMessage): IpcEntry {
    return this.#log.append((seq) => ({
      ...message,
      args: this.#redact(message),
      seq,
      sessionId: this.#sessionId,
      time: new Date(message.time),
    }));
  }

  read(channel?: string | null): IpcEntry[] {
    return this.#log.snapshot({}, (entry) => !channel || entry.channel === channel).entries;
  }

  #redact(message: IpcMessage): string {
    if (!message.truncated) {
      try {
        return JSON.stringify(this.#redactor.redact(JSON.parse(message.args) as unknown));
      } catch {
        // Not JSON after all: fall through to the pattern scrub.
      }
    }
    return this.#redactor.redactText(message.args);
  }
}
