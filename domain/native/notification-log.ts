import type { ShownNotification } from '../../transports/contract/native.js';
import { SequencedLog } from '../bounded/sequenced-log.js';

/** Notifications kept per session; older ones are dropped and counted in `overflowed`. */
export const NOTIFICATION_CAPACITY = 200;

export interface NotificationEntry {
  readonly seq: number;
  readonly sessionId: string;
  readonly title: string;
  readonly body: string;
  readonly subtitle: string;
  readonly silent: boolean;
  readonly urgency: string;
  readonly time: Date;
  /** Shown before capture was first armed (start-up notifications, seen with instrumentNative). */
  readonly beforeArm: boolean;
}

export interface NotificationCapture {
  readonly armed: boolean;
  readonly titleContains: string | null;
  readonly armedAt: Date | null;
  readonly stoppedAt: Date | null;
}

/**
 * Every notification is kept until capture is first armed (tagged `beforeArm`); arming narrows what is
 * kept to titles containing the filter; stopping ends capture. Decisions go by the time the app showed the
 * notification, not when it reached the gateway, so one shown just before arming is never mistaken.
 */
export class NotificationLog {
  readonly #sessionId: string;
  readonly #log = new SequencedLog<NotificationEntry>(NOTIFICATION_CAPACITY);
  #capture: NotificationCapture = { armed: false, titleContains: null, armedAt: null, stoppedAt: null };

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  get capture(): NotificationCapture {
    return this.#capture;
  }

  get overflowed(): number {
    return this.#log.overflowed;
  }

  arm(titleContains: string | null, now = new Date()): NotificationCapture {
    this.#capture = { armed: true, titleContains, armedAt: this.#capture.armedAt ?? now, stoppedAt: null };
    return this.#capture;
  }

  stop(now = new Date()): NotificationCapture {
    this.#capture = { ...this.#capture, armed: false, stoppedAt: now };
    return this.#capture;
  }

  /** Records a shown notification; undefined when capture does not keep it. */
  record(shown: ShownNotification): NotificationEntry | undefined {
    const time = new Date(shown.time);
    const { armedAt, stoppedAt, titleContains } = this.#capture;
    const beforeArm = armedAt === null || time < armedAt;
    if (!beforeArm) {
      if (stoppedAt !== null && time >= stoppedAt) return undefined;
      if (titleContains !== null && !shown.title.includes(titleContains)) return undefined;
    }
    return this.#log.append((seq) => ({ ...shown, seq, sessionId: this.#sessionId, time, beforeArm }));
  }

  read(titleContains?: string | null): NotificationEntry[] {
    return this.#log.snapshot({}, (entry) => !titleContains || entry.title.includes(titleContains)).entries;
  }
}
