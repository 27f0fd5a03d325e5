import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * A `{ __typename }` query sent every PROBE_INTERVAL_MS beside the fuzz, on its own connection: it must keep
 * being answered. Its latencies are recorded for the report (p50/p99), never asserted.
 */

const PROBE_INTERVAL_MS = 100;
/** A probe unanswered this long means the server stopped answering (a loaded machine answers within seconds). */
export const PROBE_STALL_MS = 15_000;
const PROBE_GIVE_UP_MS = 120_000;

export class Probe {
  readonly latencies: number[] = [];
  readonly failures: string[] = [];
  #url = '';
  #since: number | undefined;
  #running = false;
  #loop: Promise<void> | undefined;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });

  start(url: string): void {
    this.#url = url;
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Points the probe at a restarted gateway. */
  retarget(url: string): void {
    this.#url = url;
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    this.#agent.destroy();
  }

  /** How long the probe in flight has waited, 0 when none is. */
  waiting(): number {
    return this.#since === undefined ? 0 : performance.now() - this.#since;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#since = performance.now();
      const outcome = await this.#once();
      const took = performance.now() - this.#since;
      this.#since = undefined;
      if (outcome === 'Query') this.latencies.push(took);
      else this.failures.push(`${outcome} (after ${Math.round(took)} ms)`);
      await delay(PROBE_INTERVAL_MS);
    }
  }

  #once(): Promise<string> {
    return new Promise((resolve) => {
      const url = new URL(this.#url);
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          agent: this.#agent,
          timeout: PROBE_GIVE_UP_MS,
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          response.on('end', () => {
            try {
              resolve(String(JSON.parse(text)?.data?.__typename ?? text.slice(0, 200)));
            } catch {
              resolve(`status ${response.statusCode}: ${text.slice(0, 200)}`);
            }
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${PROBE_GIVE_UP_MS} ms`)));
      request.on('error', (error) => resolve(`probe failed: ${error.message}`));
      request.end('{"query":"{ __typename }"}');
    });
  }
}

/** The resident set of a process, in megabytes, from /proc/<pid>/status. */
export function residentMegabytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The q-quantile (0–1) of a sample, NaN when it is empty. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
