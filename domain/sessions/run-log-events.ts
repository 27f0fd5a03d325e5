import type { TopicHandlers } from '../../transports/contract/transport-events.js';
import { levelOfConsole, type RunLog } from './run-log.js';

/**
 * What the run log keeps of each transport topic: output, console, dialogs, windows, the end. A disconnect
 * the session asked for (`detaching`) is not news.
 */
export function runLogTopics(log: RunLog, detaching: () => boolean): TopicHandlers {
  const windowEvent = (what: string, { id, title }: { id: string; title: string }) =>
    log.stagegraph(`${what} ${id}${title ? ` "${title}"` : ''}`);
  return {
    output: (event) =>
      log.append({ time: new Date(), source: event.stream, level: 'info', message: event.text }),
    console: ({ message }) =>
      log.append({
        time: message.time,
        source: 'console',
        level: levelOfConsole(message.type),
        message: `${message.source === 'MAIN' ? 'main' : 'renderer'} ${message.type}: ${message.text}`,
        windowId: message.windowId ?? null,
      }),
    dialog: ({ dialog, decision }) =>
      log.append({
        time: new Date(),
        source: 'dialog',
        level: 'info',
        message: `${dialog.type} "${dialog.message}" ${decision.accept ? 'accepted' : 'dismissed'}`,
        windowId: dialog.windowId,
      }),
    native: (event) => {
      if (event.event.kind !== 'dialog') return;
      const { call } = event.event;
      log.append({
        time: new Date(),
        source: 'dialog',
        level: 'info',
        message: `native ${call.type} "${call.title || call.message}" answered by ${call.answeredBy}${call.answer.canceled ? ' (cancelled)' : ''}`,
      });
    },
    'window-opened': (event) => windowEvent('window opened', event.window),
    'window-closed': (event) => windowEvent('window closed', event.window),
    'renderer-crashed': (event) => log.stagegraph(`renderer of ${event.window.id} crashed`, 'error'),
    exited: ({ exit }) =>
      log.stagegraph(`app exited (${exit.signal ?? `code ${exit.code}`})`, exit.code === 0 ? 'info' : 'warn'),
    disconnected: (event) => {
      if (!detaching()) log.stagegraph(`disconnected: ${event.reason}`, 'warn');
    },
  };
}
