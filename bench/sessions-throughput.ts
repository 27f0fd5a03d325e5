// Many sessions (issue 18): one in-process gateway, 8 fixture apps launched through it on the stand-in, each
// session driven by its own graphql-ws client in a read-act loop (bench/sessions-loops.ts: interactive
// snapshot, click, expect text, fill) for a fixed time, with 1, 4 and 8 sessions at once. The reference is
// the same loop with direct Playwright on 8 more apps of its own, run right after each gateway phase so both
// share the machine's noise. Every session's solo figure is taken (sessions 0-3 alone, in turn) so its
// median at 4 can be compared with its own. CPU: this process's (gateway + clients) and the machine's.
// Run: `npx tsx bench/sessions-throughput.ts`; BENCH_PHASE_MS (default 15000) and BENCH_SOLO_MS (8000)
// set how long each phase runs.
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Client } from 'graphql-ws';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import {
  gatewaySession,
  type Latencies,
  type LoopDriver,
  OPERATIONS,
  referencePage,
  runConcurrently,
} from './sessions-loops.js';
import { percentile, summarise } from './stats.js';

const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 15_000);
const SOLO_MS = Number(process.env.BENCH_SOLO_MS ?? 8_000);
const MAX_SESSIONS = 8;
const COMPARED = 4;
const WARMUP_ITERATIONS = 3;
const LAUNCH_BATCH = 4;

interface Phase {
  readonly latencies: Latencies[];
  readonly opsPerSecond: number;
  /** This process's CPU time over wall time: 1 = one core busy. */
  readonly processCores: number;
  /** The machine's busy fraction of all its cores over the phase. */
  readonly machineBusy: number;
  readonly load1: number;
  /** Audit appends in the phase (p50, p99 ms): queueing behind other sessions' records plus the write. */
  readonly auditAppend: readonly [number, number];
  /** This process's event-loop delay (p50, p99 ms): how long any ready callback waited for the thread. */
  readonly loopDelay: readonly [number, number];
}

function machineTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

async function phase(drivers: readonly LoopDriver[], durationMs: number): Promise<Phase> {
  const cpu = process.cpuUsage();
  const machine = machineTimes();
  appendTimes.length = 0;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const { latencies, operations, wallMs } = await runConcurrently(drivers, durationMs);
  delay.disable();
  const used = process.cpuUsage(cpu);
  const after = machineTimes();
  return {
    latencies,
    opsPerSecond: (operations * 1_000) / wallMs,
    processCores: (used.user + used.system) / 1_000 / wallMs,
    machineBusy: (after.busy - machine.busy) / Math.max(1, after.total - machine.total),
    load1: os.loadavg()[0] ?? Number.NaN,
    loopDelay: [delay.percentile(50) / 1e6, delay.percentile(99) / 1e6],
    auditAppend: [summarise(appendTimes).median, percentile(appendTimes, 0.99)],
  };
}

/** Every audit append's time, from call to record written, of the phase running now. */
const appendTimes: number[] = [];

const fixed = (x: number, digits = 1) => (Number.isNaN(x) ? '—' : x.toFixed(digits));
const cell = (samples: readonly number[]) => {
  const s = summarise(samples);
  return `${fixed(s.median)} / ${fixed(s.p95)}`;
};

function cpuLine(name: string, p: Phase): string {
  return `| ${name} | ${fixed(p.opsPerSecond)} | ${fixed(p.processCores * 100, 0)} % | ${fixed(p.machineBusy * 100, 0)} % | ${fixed(p.loopDelay[0])} / ${fixed(p.loopDelay[1])} | ${fixed(p.auditAppend[0], 2)} / ${fixed(p.auditAppend[1], 2)} | ${fixed(p.load1, 2)} |`;
}

function latencyRows(side: string, n: number, p: Phase, solo: readonly Phase[] | null): string[] {
  return p.latencies.map((own, index) => {
    const reference = solo?.[index]?.latencies[0];
    const ratios = reference
      ? OPERATIONS.map((op) => summarise(own[op]).median / summarise(reference[op]).median)
      : [];
    const worst = ratios.length ? Math.max(...ratios) : Number.NaN;
    const verdict = reference ? `${fixed(worst, 2)}x ${worst <= 2 ? 'PASS' : 'MISS'}` : '—';
    return `| ${side} | ${n} | ${index} | ${OPERATIONS.map((op) => cell(own[op])).join(' | ')} | ${summarise(own.snapshot).n} | ${ratios.map((r) => fixed(r, 2)).join(' / ') || '—'} | ${verdict} |`;
  });
}

const clients: Client[] = [];
const gatewayDrivers: LoopDriver[] = [];
const referenceDrivers: LoopDriver[] = [];
// The limit guards a gateway against a flooding client; 8 loops as fast as they go are what is measured.
const gateway = await startGateway({ mutationsPerSecond: 100_000 });
// The one write chain every session's records share: timed where it is called, to see what it costs.
const audit = gateway.gateway.governance?.audit;
if (audit) {
  const append = audit.append.bind(audit);
  audit.append = (entry) => {
    const started = performance.now();
    return append(entry).finally(() => appendTimes.push(performance.now() - started));
  };
}
try {
  console.error('launching');
  // Four at a time: one by one takes minutes on a loaded machine, all at once overloads it. Whatever
  // started is closed on failure.
  for (let i = 0; i < MAX_SESSIONS; i += 1) clients.push(wsClient(gateway.wsUrl));
  const start = async (into: LoopDriver[], launch: (i: number) => Promise<LoopDriver>) => {
    for (let from = 0; from < MAX_SESSIONS; from += LAUNCH_BATCH) {
      const batch = Array.from({ length: LAUNCH_BATCH }, (_, k) => launch(from + k));
      const settled = await Promise.allSettled(batch);
      for (const result of settled) if (result.status === 'fulfilled') into.push(result.value);
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    }
  };
  await start(gatewayDrivers, (i) => gatewaySession(clients[i]!, `g${i}`));
  await start(referenceDrivers, (i) => referencePage(`r${i}`));
  console.error('warming up');
  for (const driver of [...gatewayDrivers, ...referenceDrivers])
    for (let i = 0; i < WARMUP_ITERATIONS; i += 1) await driver.iterate(() => {});

  const solo = { gateway: [] as Phase[], reference: [] as Phase[] };
  for (let i = 0; i < COMPARED; i += 1) {
    console.error(`solo ${i}`);
    solo.gateway.push(await phase([gatewayDrivers[i]!], SOLO_MS));
    solo.reference.push(await phase([referenceDrivers[i]!], SOLO_MS));
  }
  const at = new Map<number, { gateway: Phase; reference: Phase }>();
  for (const n of [COMPARED, MAX_SESSIONS]) {
    console.error(`${n} at once`);
    const gatewayPhase = await phase(gatewayDrivers.slice(0, n), PHASE_MS);
    const referencePhase = await phase(referenceDrivers.slice(0, n), PHASE_MS);
    at.set(n, { gateway: gatewayPhase, reference: referencePhase });
  }

  const soloRate = (phases: readonly Phase[]) => summarise(phases.map((p) => p.opsPerSecond)).median;
  const rates = {
    gateway: [
      soloRate(solo.gateway),
      at.get(COMPARED)!.gateway.opsPerSecond,
      at.get(MAX_SESSIONS)!.gateway.opsPerSecond,
    ],
    reference: [
      soloRate(solo.reference),
      at.get(COMPARED)!.reference.opsPerSecond,
      at.get(MAX_SESSIONS)!.reference.opsPerSecond,
    ],
  };
  console.log(
    `## Read-act loop with 1, ${COMPARED} and ${MAX_SESSIONS} sessions (snapshot(interactiveOnly) → click → expect TEXT → fill; ${os.cpus().length} cores; solo phases ${SOLO_MS} ms, others ${PHASE_MS} ms)\n`,
  );
  console.log(
    '| sessions | gateway ops/s | reference ops/s | gateway / reference | gateway growth vs 1 | reference growth vs 1 |\n|---|---|---|---|---|---|',
  );
  [1, COMPARED, MAX_SESSIONS].forEach((n, i) => {
    const g = rates.gateway[i]!;
    const r = rates.reference[i]!;
    console.log(
      `| ${n} | ${fixed(g)} | ${fixed(r)} | ${fixed(g / r, 2)}x | ${fixed(g / rates.gateway[0]!, 2)}x | ${fixed(r / rates.reference[0]!, 2)}x |`,
    );
  });
  const [g1, g4, g8] = rates.gateway as [number, number, number];
  console.log(
    `\nAggregate 1 → ${COMPARED}: ${g4 > g1 ? 'grows' : 'does NOT grow'} (${fixed(g4 / g1, 2)}x); ${COMPARED} → ${MAX_SESSIONS}: ${fixed(g8 / g4, 2)}x (${g8 > g4 * 1.05 ? 'grows' : 'plateau'}; machine busy ${fixed(at.get(MAX_SESSIONS)!.gateway.machineBusy * 100, 0)} % of its cores at ${MAX_SESSIONS}).\n`,
  );
  console.log(
    '| phase | ops/s | this process CPU (gateway + clients; 100 % = one core) | machine busy (all cores) | event-loop delay p50 / p99 ms | audit append p50 / p99 ms | load 1 min at end |\n|---|---|---|---|---|---|---|',
  );
  solo.gateway.forEach((p, i) => {
    console.log(cpuLine(`gateway, session ${i} alone`, p));
    console.log(cpuLine(`reference, page ${i} alone`, solo.reference[i]!));
  });
  for (const n of [COMPARED, MAX_SESSIONS]) {
    console.log(cpuLine(`gateway, ${n} sessions`, at.get(n)!.gateway));
    console.log(cpuLine(`reference, ${n} pages`, at.get(n)!.reference));
  }
  console.log(
    `\nPer session, per operation: median / p95 ms (iterations = n). Ratio: each operation's median against the same session's solo median (${OPERATIONS.join(' / ')}); PASS when the worst is <= 2x.\n`,
  );
  console.log(
    `| side | sessions | session | ${OPERATIONS.join(' | ')} | iterations | median vs solo | worst |\n|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const side of ['gateway', 'reference'] as const) {
    solo[side].forEach((p, i) => {
      const [row] = latencyRows(side, 1, { ...p, latencies: p.latencies }, null);
      console.log(row?.replace(`| ${side} | 1 | 0 |`, `| ${side} | 1 | ${i} |`));
    });
    for (const n of [COMPARED, MAX_SESSIONS])
      for (const line of latencyRows(side, n, at.get(n)![side], solo[side])) console.log(line);
  }
} finally {
  for (const driver of referenceDrivers) await driver.close().catch(() => {});
  for (const driver of gatewayDrivers) await driver.close().catch(() => {});
  for (const client of clients) await client.dispose();
  await gateway.stop();
}
