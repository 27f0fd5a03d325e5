import { createServer } from 'node:net';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { capabilityMatrix } from '../contract/capabilities.js';
import type {
  AppInfo,
  AttachOptions,
  AttachTransport,
  CommandOptions,
} from '../contract/transport-contract.js';
import { PAGE_ENGINE_CAPABILITIES } from '../page-engine/page/page-capabilities.js';
import type { AppIsolation } from '../process/isolation.js';
import { OwnedProcess } from '../process/owned-process.js';
import { commandLineOf, executableOf, listenerOf, parentOf } from '../process/proc-sockets.js';
import { delay } from '../process/process-group.js';
import { assertWorkingFolder } from '../process/working-folder.js';
import { CdpSession } from './cdp-session.js';
import {
  announcedHost,
  assertHostAllowed,
  type BrowserEndpoint,
  discover,
  endpointAddress,
  readBrowserEndpoint,
} from './endpoint.js';

/** How often a launched command's port is probed while Stagegraph waits for it to open. */
const PORT_POLL_MS = 100;
/** One probe of a port that is still opening waits at most this. */
const PORT_PROBE_TIMEOUT_MS = 1_000;

export interface CdpTransportConfig {
  /** `--allow-remote-cdp`: attach to DevTools endpoints on hosts other than this machine. */
  readonly allowRemoteHosts?: boolean;
  readonly environment?: NodeJS.ProcessEnv;
  /** How launchCommand starts commands: in a PID namespace of their own where the gateway asks for it. */
  readonly isolation?: AppIsolation;
}

/**
 * Attaches to any Chromium or Electron app with a remote-debugging port, or starts a command with one.
 * What it cannot do is false: it reaches renderers, not the main process (no native UI, no main eval), and
 * it starts commands, not Electron apps by their main script (LAUNCH is the launch transport's).
 */
export function createCdpTransport(config: CdpTransportConfig = {}): AttachTransport {
  const environment = config.environment ?? process.env;
  return {
    id: 'cdp',
    description:
      'Attaches to a running Chromium or Electron app over its remote-debugging port (chrome-remote-interface for targets and liveness, Playwright for the pages), or starts a command with one.',
    capabilities: capabilityMatrix(['ATTACH', ...PAGE_ENGINE_CAPABILITIES]),
    async attach(options: AttachOptions) {
      const address = endpointAddress(options);
      assertHostAllowed(address.host, config.allowRemoteHosts === true);
      const endpoint = await readBrowserEndpoint(address, options.timeoutMs);
      const pid =
        endpoint.host === '127.0.0.1' || endpoint.host === 'localhost' ? listenerOf(endpoint.port) : null;
      return CdpSession.open({
        endpoint,
        app: appInfoOf(endpoint, pid, null),
        pid: pid ?? undefined,
        filter: options,
        timeoutMs: options.timeoutMs,
      });
    },
    async launchCommand(options: CommandOptions) {
      assertWorkingFolder(options.cwd);
      const port = await freeLoopbackPort();
      // Switches first: Electron (and the stand-in) read Chromium switches before the app's own arguments.
      const args = [
        `--remote-debugging-port=${port}`,
        '--remote-debugging-address=127.0.0.1',
        ...options.args,
      ];
      const owned = OwnedProcess.start(options.command, args, {
        ...(options.cwd ? { cwd: options.cwd } : {}),
        env: { ...environment, ...options.env },
        outputDir: options.outputDir,
        isolation: config.isolation,
      });
      try {
        const endpoint = await waitForEndpoint(owned, port, options.timeoutMs);
        return await CdpSession.open({
          endpoint,
          app: appInfoOf(endpoint, owned.pid, options.command),
          pid: owned.pid,
          filter: options,
          timeoutMs: options.timeoutMs,
          owned,
        });
      } catch (error) {
        await owned.kill();
        throw error;
      }
    },
    discover: (ports, host) => {
      assertHostAllowed(host, config.allowRemoteHosts === true);
      return discover(ports, host);
    },
  };
}

/** A port free on 127.0.0.1 right now; the command binds it moments later. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls the port until the browser answers; EXITED_EARLY or LAUNCH_TIMEOUT with the stderr tail otherwise. */
async function waitForEndpoint(
  owned: OwnedProcess,
  port: number,
  timeoutMs: number,
): Promise<BrowserEndpoint> {
  const deadline = Date.now() + timeoutMs;
  let announced: string | null = null;
  for (;;) {
    if (owned.hasExited()) {
      const exit = await owned.exited;
      if (owned.spawnError) {
        throw new StagegraphError(
          'LAUNCH_FAILED',
          `The command could not start: ${owned.spawnError.message}.`,
          {
            details: { command: owned.executablePath },
          },
        );
      }
      throw new StagegraphError(
        'EXITED_EARLY',
        `The command exited (${exit.signal ?? `code ${exit.code}`}) before its DevTools port ${port} answered.`,
        { details: { command: owned.executablePath, exit, stderrTail: owned.stderrTail() } },
      );
    }
    // Probed where the app says it listens, once it has: 127.0.0.1:port may then be another process's.
    announced ??= announcedHost(owned.stderrTail(), port);
    try {
      return await readBrowserEndpoint({ host: announced ?? '127.0.0.1', port }, PORT_PROBE_TIMEOUT_MS);
    } catch {
      // Not open yet.
    }
    if (Date.now() >= deadline) {
      throw new StagegraphError(
        'LAUNCH_TIMEOUT',
        `The command's DevTools port ${port} did not answer within ${timeoutMs} ms.`,
        {
          hint: 'Check the command passes --remote-debugging-port on to Chromium or Electron; raise timeoutMs if it is slow.',
          details: { command: owned.executablePath, stderrTail: owned.stderrTail() },
        },
      );
    }
    await Promise.race([delay(PORT_POLL_MS), owned.exited]);
  }
}

/**
 * What the endpoint says of itself. Electron's user agent carries the app's name and version before
 * `Chrome/`, and `Electron/<version>` after it; a plain browser has only its product.
 */
function appInfoOf(endpoint: BrowserEndpoint, pid: number | null, command: string | null): AppInfo {
  const [product, productVersion] = endpoint.browser.split('/');
  const electron = /Electron\/(\S+)/.exec(endpoint.userAgent)?.[1];
  const named = electron ? /\) (\S+)\/(\S+) Chrome\//.exec(endpoint.userAgent) : null;
  return {
    name: named?.[1] ?? product ?? null,
    version: named?.[2] ?? productVersion ?? null,
    executablePath: command ?? (pid === null ? null : executableOf(pid)) ?? '',
    versions: {
      ...(productVersion ? { chrome: productVersion } : {}),
      ...(endpoint.v8 ? { v8: endpoint.v8 } : {}),
      ...(endpoint.protocolVersion ? { protocol: endpoint.protocolVersion } : {}),
      ...(electron ? { electron } : {}),
    },
    standIn: pid !== null && isStandIn(pid),
  };
}

/** The stand-in is a node process running its bootstrap; its Chromium (the port's listener) is its child. */
function isStandIn(pid: number): boolean {
  const parent = parentOf(pid);
  return [pid, parent].some(
    (candidate) =>
      candidate !== null && commandLineOf(candidate).some((arg) => arg.includes('electron-standin')),
  );
}
