import { capabilityMatrix } from '../contract/capabilities.js';
import type { InjectOptions, InjectTransport } from '../contract/transport-contract.js';
import { InjectDeadline } from './inject-deadline.js';
import { InspectorSession, UPGRADED } from './inspector-session.js';
import { MainProcess } from './main-process.js';
import { openInspector } from './open-inspector.js';

/** How long a shutdown may spend reconnecting to close an inspector an abandoned inject opened. */
const RELEASE_CONNECT_MS = 3_000;

/**
 * Injects into a running Node or Electron main process through its inspector (opened by SIGUSR1, as
 * `process._debugProcess` does), and — the upgrade — drives its windows through `webContents.debugger`.
 * The matrix is the best case; each session's own matrix says what its app allowed.
 */
export function createInspectorTransport(): InjectTransport {
  return {
    id: 'inspector',
    description:
      'Injects into a running Electron (or Node) main process through its inspector, with no debugging flag needed; its upgrade drives the windows through webContents.debugger.',
    capabilities: capabilityMatrix([
      'INJECT',
      'MAIN_EVAL',
      'CONSOLE',
      'WINDOWS',
      'NATIVE_UI',
      'RENDERER_EVAL',
      ...UPGRADED,
    ]),
    async inject(options: InjectOptions) {
      const deadline = new InjectDeadline(options.pid, options.timeoutMs, options.signal);
      const endpoint = await openInspector(options.pid, deadline);
      const main = await MainProcess.connect(endpoint.webSocketDebuggerUrl, deadline).catch(
        async (error: unknown) => {
          // Abandoned by a shutdown once the inspector is open: it is closed again, as it was found.
          if (deadline.abandoned && endpoint.openedHere) {
            const closer = new InjectDeadline(options.pid, RELEASE_CONNECT_MS);
            await MainProcess.connect(endpoint.webSocketDebuggerUrl, closer)
              .then((again) => again.release(true))
              .catch(() => undefined);
          }
          throw error;
        },
      );
      return InspectorSession.open(main, {
        upgrade: options.upgrade,
        deadline,
        openedHere: endpoint.openedHere,
      });
    },
  };
}
