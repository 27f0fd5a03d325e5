import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { compileAsServed } from './test/compile-as-served.js';

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [compileAsServed()],
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module). Node-run dependencies such as Pothos load the CJS
    // build, while Vite would pick the ESM one for our sources: two realms, and graphql refuses to mix
    // them ("Cannot use GraphQLObjectType from another module or realm"). Pin everyone to the CJS build.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['**/*.test.{ts,mts}'],
    // The fault suite loads the machine on purpose; it runs alone, as `npm run chaos` (vitest.chaos.config.ts).
    // The schema fuzz runs here at 2,000 requests of one fixed seed (a red run can be replayed); `npm run fuzz`
    // draws a new seed at 10,000.
    exclude: ['node_modules/**', 'test/faults/**'],
    globalSetup: ['test/run-temp-folder.ts'],
    // End-to-end suites start Chromium and then mostly wait on it, so three files run at once on two cores.
    // The same 1,304 tests took 553 s with three workers and 741 s with two on a quiet machine, and 693 s
    // with three at load 15–21 (twelve busy loops beside them), all passing, where two took 865 s at 13–19.
    fileParallelism: true,
    maxWorkers: 3,
    // Safety nets, not measures: a test waits for what it caused. Hooks launch apps, which at load 35 on
    // two cores took past a minute.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits for a change a test caused; its 1 s default is a quiet machine's figure, and a
    // loaded one (load 15 on 2 cores) takes seconds to show it. A safety net only: a poll that holds ends at once.
    expect: { poll: { timeout: 30_000 } },
  },
});
