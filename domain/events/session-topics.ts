import type { NativeTopics } from '../native/session-native.js';
import type { PageStateTopics } from '../page-state/session-page-state.js';
import type { ConsoleTopics } from '../sessions/console-log.js';
import type { SessionEventTopics } from '../sessions/session-event.js';

/**
 * The gateway's event hub topics, every event naming its session so subscribers can filter. Each feature
 * declares its own topics beside its code; this only puts them together.
 */
export type SessionTopics = SessionEventTopics & ConsoleTopics & NativeTopics & PageStateTopics;
