// A fault-suite app: its main thread blocks before the app is ready, so a launch of it stays in progress
// (Playwright is still waiting for it) for as long as the test needs. It uses no CPU while blocked.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
