import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ScreencastOptions } from '../../transports/contract/screencast-contract.js';

/** Each argument's default and the range it must lie in; outside it the subscription is refused. */
export const SCREENCAST_LIMITS = {
  maxFps: { default: 10, min: 1, max: 30 },
  quality: { default: 60, min: 10, max: 100 },
  maxWidth: { default: 800, min: 160, max: 1920 },
} as const;

export interface ScreencastRequest {
  readonly window?: string | null;
  readonly maxFps?: number | null;
  readonly quality?: number | null;
  readonly maxWidth?: number | null;
}

/**
 * The options a request asks for, defaults filled in. An out-of-range value is refused (BAD_INPUT naming
 * the range) rather than clamped: a viewer asking for 60 fps would otherwise be told nothing of getting 30.
 */
export function screencastOptions(request: ScreencastRequest): ScreencastOptions {
  const pick = (name: keyof typeof SCREENCAST_LIMITS): number => {
    const limits = SCREENCAST_LIMITS[name];
    const value = request[name] ?? limits.default;
    if (Number.isInteger(value) && value >= limits.min && value <= limits.max) return value;
    throw new StagegraphError(
      'BAD_INPUT',
      `screencast ${name} must be ${limits.min} to ${limits.max} (got ${value}).`,
      {
        hint: `Pass ${name} between ${limits.min} and ${limits.max}, or leave it out for ${limits.default}.`,
        details: { argument: name, min: limits.min, max: limits.max },
      },
    );
  };
  return { maxFps: pick('maxFps'), quality: pick('quality'), maxWidth: pick('maxWidth') };
}
