import type { AgentCore, ElectronLike, Loose } from './shapes.js';

/**
 * Reports every `Notification#show()` with what the app set on it. Self-contained (shipped as source).
 * Electron documents title, body, subtitle, silent and urgency as instance properties, so they are read there.
 */
export function installNotificationHooks(electron: ElectronLike, agent: AgentCore): void {
  const prototype = electron.Notification?.prototype;
  if (!prototype || typeof prototype.show !== 'function') return;
  const originalShow = prototype.show;
  prototype.show = function show(this: Loose, ...args: Loose[]) {
    agent.emit({
      kind: 'notification',
      notification: {
        title: String(this.title ?? ''),
        body: String(this.body ?? ''),
        subtitle: String(this.subtitle ?? ''),
        silent: this.silent === true,
        urgency: String(this.urgency || 'normal'),
        time: new Date().toISOString(),
      },
    });
    return originalShow.apply(this, args);
  };
}
