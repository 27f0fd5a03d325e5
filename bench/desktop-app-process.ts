// A fixture app of fixtures/desktop-app/ started on a bench's owned desktop, with a way to wait for the
// lines it prints (each fixture prints `ready pid=N` once shown, then one line per change it saw).
import { type ChildProcess, spawn } from 'node:child_process';

export const SYSTEM_PYTHON = '/usr/bin/python3';

export interface DesktopAppProcess {
  readonly child: ChildProcess;
  /** Resolves the next time the app prints exactly `expected` (ask before causing it). */
  nextLine(expected: string): Promise<void>;
  /** Kills the app's process group. */
  stop(): void;
}

export function startDesktopApp(
  script: string,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
): Promise<DesktopAppProcess> {
  const child = spawn(SYSTEM_PYTHON, [script], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const waiting: { expected: string; resolve: () => void }[] = [];
  let buffered = '';
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line.startsWith('ready pid=')) ready();
      const index = waiting.findIndex((waiter) => waiter.expected === line);
      if (index >= 0) waiting.splice(index, 1)[0]?.resolve();
    }
  });
  const app: DesktopAppProcess = {
    child,
    nextLine: (expected) => new Promise((resolve) => waiting.push({ expected, resolve })),
    stop: () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
  };
  return Promise.race([
    started.then(() => app),
    new Promise<never>((_, reject) => {
      child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
      setTimeout(
        () => reject(new Error(`${script} was not ready within ${timeoutMs} ms`)),
        timeoutMs,
      ).unref();
    }),
  ]);
}
