// The console fan-out bench's subscribers, in a process of their own (forked by bench/console-fanout.ts),
// so their JSON parsing and WebSocket framing do not share the gateway's event loop: the gateway's
// figures are the gateway's. Told what to subscribe to over IPC; answers `ready`, then one `done` report.
import { type TalliedDelivery, talliedClient } from '../test/helpers/stream-tally.js';
import { type Summary, summarise } from './stats.js';

export interface SubscribersRequest {
  readonly wsUrl: string;
  readonly query: string;
  readonly subscribers: number;
  /** The number of the page's last line: the run is over when every subscriber has seen it. */
  readonly lastLine: number;
  /** Every Nth line's latency is kept: enough for a p95 without the samples dominating memory. */
  readonly sampleEvery: number;
}

export type SubscribersMessage =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'done';
      readonly delivered: number;
      readonly dropped: number;
      /**
       * Deliveries whose flood line did not follow the previous one plus its droppedBefore: an event lost
       * without being reported (lines, not seqs: the filter skips the page's other entries' seqs).
       */
      readonly unaccounted: number;
      readonly errors: number;
      /** From the first delivery to the last line's arrival at the last subscriber. */
      readonly seconds: number;
      readonly latency: Summary;
      /** This process's user + system CPU time from `ready` to the last line, per delivery. */
      readonly cpuMicrosPerDelivery: number;
    };

function report(message: SubscribersMessage): void {
  process.send?.(message);
}

process.once('message', async (request: SubscribersRequest) => {
  const latencies: number[] = [];
  let first = 0;
  let finished = 0;
  let finish: () => void = () => {};
  const allFinished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let outOfOrder = 0;
  /** Each subscriber's own check: a flood line follows the previous one plus what it was told it lost. */
  const subscriber = () => {
    let previousLine = 0;
    return ({ entry, droppedBefore }: TalliedDelivery) => {
      const [, lineText, stamp] = (entry.text ?? '').split(' ');
      const line = Number(lineText);
      if (first === 0) first = performance.now();
      if (previousLine > 0 && line !== previousLine + droppedBefore + 1) outOfOrder += 1;
      previousLine = line;
      if (line % request.sampleEvery === 0) latencies.push(Date.now() - Number(stamp));
      if (line !== request.lastLine) return;
      finished += 1;
      if (finished === request.subscribers) finish();
    };
  };
  const clients = await Promise.all(
    Array.from({ length: request.subscribers }, () =>
      talliedClient(request.wsUrl, [{ field: 'console', query: request.query, onDelivery: subscriber() }]),
    ),
  );
  report({ kind: 'ready' });
  const cpuBefore = process.cpuUsage();
  await allFinished;
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - first) / 1000;
  const tallies = clients.map((client) => client.tallies[0]);
  const sum = (pick: (tally: NonNullable<(typeof tallies)[number]>) => number) =>
    tallies.reduce((total, tally) => total + (tally ? pick(tally) : 0), 0);
  const delivered = sum((tally) => tally.delivered);
  report({
    kind: 'done',
    delivered,
    dropped: sum((tally) => tally.dropped),
    unaccounted: outOfOrder,
    errors: clients.reduce((total, client) => total + client.errors.length, 0),
    seconds,
    latency: summarise(latencies),
    cpuMicrosPerDelivery: (cpu.user + cpu.system) / delivered,
  });
  for (const client of clients) client.close();
  process.disconnect();
});
