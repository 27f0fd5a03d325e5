// The table page's sizes (rows) a bench runs, and its timed runs per size, as the environment sets them.

export const TABLE_SIZES = [100, 1_000, 5_000] as const;
export type TableSize = (typeof TABLE_SIZES)[number];

/** All sizes, or only those BENCH_SIZES lists (`BENCH_SIZES=100,1000`). */
export const SIZES: readonly TableSize[] = TABLE_SIZES.filter((rows) =>
  process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number).includes(rows) : true,
);

/** Timed runs per size: `defaults`, or for every size the number the environment variable `variable` holds. */
export function runsPerSize(
  variable: string,
  defaults: Record<TableSize, number>,
): Record<TableSize, number> {
  const override = process.env[variable];
  if (override === undefined) return defaults;
  const n = Number(override);
  return { 100: n, 1000: n, 5000: n };
}
