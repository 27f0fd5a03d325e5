import { spawn } from 'node:child_process';
import type { ExitInfo } from '../../transports/contract/transport-events.js';

/** Spawns `script` as the leader of a new process group. */
export function spawnGroup(script: string) {
  const child = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<ExitInfo>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  /** Resolves once the script has printed "ready": its signal handlers are in place, however loaded the machine. */
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve()),
  );
  return { pgid: child.pid!, exited, ready };
}

/** A leader that spawns a grandchild in its own group, like the stand-in spawning Chromium. */
export const LEADER_WITH_CHILD = `
  require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  setInterval(() => {}, 1000);
`;

/** A leader that quits at once on SIGINT while its child takes `ms` to finish, then writes `done`. */
export function leaderWithSlowChild(done: string, ms: number): string {
  const child = `process.on('SIGINT', () => setTimeout(() => { require('fs').writeFileSync(${JSON.stringify(done)}, ''); process.exit(0); }, ${ms})); setInterval(() => {}, 1000); console.log('child ready');`;
  return `
    const child = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: ['ignore', 'pipe', 'ignore'] });
    process.on('SIGINT', () => process.exit(0));
    child.stdout.on('data', () => console.log('ready'));
    setInterval(() => {}, 1000);
  `;
}
