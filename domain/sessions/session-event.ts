import type { ExitInfo, WindowInfo } from '../../transports/contract/transport-events.js';

export type SessionStatus =
  | 'STARTING'
  | 'RUNNING'
  | 'CRASHED'
  | 'EXITED'
  | 'STOPPED'
  /** The connection to an app Stagegraph did not start was lost; the app may still run. */
  | 'DISCONNECTED'
  /** Stagegraph let go of an app it attached to; the app keeps running. */
  | 'DETACHED';

export type SessionEventType =
  | 'STARTED'
  | 'WINDOW_OPENED'
  | 'WINDOW_CLOSED'
  | 'RENDERER_CRASHED'
  | 'STOPPED'
  | 'EXITED'
  | 'CRASHED'
  | 'DISCONNECTED'
  | 'DETACHED';

export interface SessionEvent {
  readonly type: SessionEventType;
  readonly sessionId: string;
  readonly time: Date;
  readonly status: SessionStatus;
  readonly window: WindowInfo | null;
  readonly exit: ExitInfo | null;
}

/** The hub topic the session's own life is published on. */
export type SessionEventTopics = {
  sessionEvent: SessionEvent;
};
