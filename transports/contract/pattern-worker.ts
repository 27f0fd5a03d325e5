import { Worker } from 'node:worker_threads';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { CLIENT_PATTERN_DEADLINE_MS, LINEAR_FLAG } from './client-pattern.js';

/**
 * Client patterns are matched off the gateway's thread: V8's linear engine (client-pattern.ts) makes the
 * catastrophic patterns linear in the text, but its time is the text's length times the pattern's size
 * (`(.*)*` repeated 100 times took 10 s on 10,000 characters), and a regex, once running, cannot be
 * interrupted on the thread that runs it. A worker can be terminated: a match past its deadline ends with
 * BAD_INPUT, the worker is replaced, and the gateway's own thread went on answering meanwhile.
 */

/** The worker: compiles each job's pattern on the linear engine when it can, and tests every text. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, source, texts }) => {
  let pattern;
  try { pattern = new RegExp(source, ${JSON.stringify(LINEAR_FLAG)}); } catch { pattern = new RegExp(source); }
  parentPort.postMessage({ id, results: texts.map((text) => pattern.test(text)) });
});
`;

interface Job {
  readonly id: number;
  readonly source: string;
  readonly texts: readonly string[];
  readonly argument: string;
  readonly settle: (outcome: boolean[] | Error) => void;
}

/** One worker at a time, jobs in turn: a pattern's deadline starts when its job does. */
class PatternWorker {
  #worker: Worker | undefined;
  #queue: Job[] = [];
  #running: { job: Job; timer: ReturnType<typeof setTimeout> } | undefined;
  #nextId = 1;

  match(source: string, texts: readonly string[], argument: string): Promise<boolean[]> {
    return new Promise((resolve, reject) => {
      this.#queue.push({
        id: this.#nextId++,
        source,
        texts,
        argument,
        settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
      });
      this.#next();
    });
  }

  #next(): void {
    if (this.#running) return;
    const job = this.#queue.shift();
    if (!job) return;
    const timer = setTimeout(() => this.#overran(job), CLIENT_PATTERN_DEADLINE_MS);
    this.#running = { job, timer };
    this.#spawned().postMessage({ id: job.id, source: job.source, texts: job.texts });
  }

  #spawned(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // An idle worker must not keep a stopping gateway (or a test run) alive.
    worker.unref();
    worker.on('message', ({ id, results }: { id: number; results: boolean[] }) => {
      if (this.#running?.job.id !== id) return;
      this.#finish(results);
    });
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', () => this.#lost(worker, new Error('the pattern worker exited')));
    this.#worker = worker;
    return worker;
  }

  #overran(job: Job): void {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
    this.#finish(
      new StagegraphError(
        'BAD_INPUT',
        `${job.argument} took more than ${CLIENT_PATTERN_DEADLINE_MS} ms on ${job.texts.length} text(s) and was stopped.`,
        {
          hint: 'Shorten the pattern (fewer nested or repeated groups), or narrow what it is matched against first (role, nameContains, a target).',
          details: { argument: job.argument },
        },
      ),
    );
  }

  /** A worker that died under a job (not one terminated for its deadline) fails that job as our bug. */
  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#running) this.#finish(error);
  }

  #finish(outcome: boolean[] | Error): void {
    const running = this.#running;
    if (!running) return;
    clearTimeout(running.timer);
    this.#running = undefined;
    running.job.settle(outcome);
    this.#next();
  }
}

const shared = new PatternWorker();

/**
 * Whether each text matches the client's pattern, compiled first by clientPattern (which refuses what is not
 * a pattern); BAD_INPUT when matching runs past CLIENT_PATTERN_DEADLINE_MS.
 */
export function matchClientPattern(
  source: string,
  texts: readonly string[],
  argument: string,
): Promise<boolean[]> {
  return texts.length === 0 ? Promise.resolve([]) : shared.match(source, texts, argument);
}
