// Runs every benchmark in sequence, each in its own process so one's garbage does not skew the next.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHES = [
  'gateway-roundtrip.ts',
  'launch.ts',
  'governance.ts',
  'governance-click.ts',
  'click-overhead.ts',
  'native.ts',
  'console-fanout.ts',
  'attach.ts',
  'attach-scale.ts',
  'network-capture.ts',
  'outline-size.ts',
  'snapshot-scale.ts',
  'snapshot-incremental.ts',
  'atspi-snapshot.ts',
  'atspi-dogtail.ts',
  'screencast.ts',
  'mcp-form.ts',
  'expect-latency.ts',
  'ocr-index.ts',
  'sessions-throughput.ts',
  'cluster-events.ts',
  'cluster-forwarding.ts',
  'fuzz.ts',
];
const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));

console.log(`# Stagegraph benchmarks — ${new Date().toISOString()}\n`);
for (const bench of BENCHES) {
  execFileSync(process.execPath, [tsx, fileURLToPath(new URL(bench, import.meta.url))], { stdio: 'inherit' });
  console.log();
}
