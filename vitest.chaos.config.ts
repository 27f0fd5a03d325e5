import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run chaos`: the fault suite (issue 11) — kill -9 of apps and renderers, stopped renderers, a storm of
 * twenty launches, inject/detach cycles, SIGTERM of the gateway mid-flight. Twenty Chromiums load two cores
 * far past what the default run's timings assume, so it runs apart from `npm test`, one file at a time.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/faults/**/*.test.ts'],
    exclude: ['node_modules/**'],
    fileParallelism: false,
    maxWorkers: 1,
    // Safety nets only: a storm of twenty launches on two loaded cores takes minutes.
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
