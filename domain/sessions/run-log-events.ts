import type { TransportEvent } from '../../transports/contract/transport.js';
import { levelOfConsole, type RunLog } from './run-log.js';

/** What the run log keeps of each transport event: output, console, dialogs, windows, the end. */
export function recordTransportEvent(log: RunLog, event: TransportEvent, detaching: boolean): void {
  switch (event.type) {
    case 'output':
      log.append({ time: new Date(), source: event.stream, level: 'info', message: event.text });
      return;
    case 'console': {
      const { message } = event;
      log.append({
        time: message.time,
        source: 'console',
        level: levelOfConsole(message.type),
        message: `${message.source === 'MAIN' ? 'main' : 'renderer'} ${message.type}: ${message.text}`,
        windowId: message.windowId ?? null,
      });
      return;
    }
    case 'dialog': {
      const { dialog, decision } = event;
      const answer = decision.accept ? 'accepted' : 'dismissed';
      log.append({
        time: new Date(),
        source: 'dialog',
        level: 'info',
        message: `${dialog.type} "${dialog.message}" ${answer}`,
        windowId: dialog.windowId,
      });
      return;
    }
    case 'native':
      if (event.event.kind === 'dialog') {
        const { call } = event.event;
        log.append({
          time: new Date(),
          source: 'dialog',
          level: 'info',
          message: `native ${call.type} "${call.title || call.message}" answered by ${call.answeredBy}${call.answer.canceled ? ' (cancelled)' : ''}`,
        });
      }
      return;
    case 'window-opened':
    case 'window-closed':
      log.stagegraph(
        `${event.type.replace('-', ' ')} ${event.window.id}${event.window.title ? ` "${event.window.title}"` : ''}`,
      );
      return;
    case 'renderer-crashed':
      log.stagegraph(`renderer of ${event.window.id} crashed`, 'error');
      return;
    case 'exited':
      log.stagegraph(
        `app exited (${event.exit.signal ?? `code ${event.exit.code}`})`,
        event.exit.code === 0 ? 'info' : 'warn',
      );
      return;
    case 'disconnected':
      if (!detaching) log.stagegraph(`disconnected: ${event.reason}`, 'warn');
      return;
    case 'network':
      return;
  }
}
