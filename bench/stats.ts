/** Summary figures of a sample of durations in milliseconds. */
export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p95: number;
  readonly mean: number;
}

/** The sample at quantile `q` (0–1) of `sorted`, in ascending order; NaN for no samples. */
function quantileOf(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** One quantile of a sample, for figures `summarise` does not give (a p99). */
export function percentile(samples: readonly number[], q: number): number {
  return quantileOf(
    [...samples].sort((a, b) => a - b),
    q,
  );
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => quantileOf(sorted, q);
  return {
    n: sorted.length,
    median: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
  };
}

/** How long one run of `run` takes. */
export async function timedOnce(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Times `run` `n` times in sequence after `warmup` untimed runs. */
export async function time(
  n: number,
  run: () => Promise<unknown>,
  warmup = Math.min(50, n),
): Promise<Summary> {
  for (let i = 0; i < warmup; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return summarise(samples);
}

/**
 * The ratio of medians `samples` / `reference` in each of `rounds` consecutive slices of two paired samples
 * (taken alternately): how far one run's ratio moves within itself.
 */
export function ratiosInRounds(
  samples: readonly number[],
  reference: readonly number[],
  rounds: number,
): number[] {
  const size = Math.floor(Math.min(samples.length, reference.length) / rounds);
  if (size === 0) return [];
  return Array.from({ length: rounds }, (_, round) => {
    const slice = (of: readonly number[]) => of.slice(round * size, (round + 1) * size);
    return summarise(slice(samples)).median / summarise(slice(reference)).median;
  });
}

export function row(name: string, summary: Summary, reference?: Summary): string {
  const ratio = reference ? `${(summary.median / reference.median).toFixed(2)}x` : 'reference';
  return `| ${name} | ${summary.n} | ${summary.median.toFixed(3)} | ${summary.p95.toFixed(3)} | ${ratio} |`;
}

export const HEADER = '| what | n | median ms | p95 ms | vs reference (median) |\n|---|---|---|---|---|';
