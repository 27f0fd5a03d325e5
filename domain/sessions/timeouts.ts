export const LAUNCH_TIMEOUT_DEFAULT_MS = 30_000;
/** A launch slower than two minutes is a hung app, not a slow one. */
export const LAUNCH_TIMEOUT_MAX_MS = 120_000;

export function clamp(value: number | null | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  return Math.min(max, Math.max(min, value));
}
