// The governance chokepoint's own cost per mutation: policy evaluation, redaction and an audit append,
// against the same loop without them (the reference). A click costs several milliseconds end to end, so
// the "<= 5% of a click" budget is a few hundred microseconds; the ratio on a real click is
// measured end to end once the mutations pass through the chokepoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../domain/audit/audit-log.js';
import { Policy } from '../domain/governance/policy/policy.js';
import { Redactor } from '../domain/governance/redaction/redaction.js';
import type { GovernedRequest } from '../domain/governance/request/governed-request.js';
import { type Summary, time } from './stats.js';

const N = Number(process.env.BENCH_N ?? 5_000);
/** What a click costs through the gateway on this class of machine; the budget is 5% of it. */
const CLICK_REFERENCE_MS = 5;

const policy = new Policy({
  rules: [
    { id: 'fixture-eval', operation: ['eval'], session: { main: '**/fixtures/**' }, decision: 'ALLOW' },
    {
      id: 'no-pay',
      session: { executable: '**/billing*' },
      target: { name: '/pay|purchase/i' },
      decision: 'DENY',
    },
    { operation: ['fill'], args: { value: '*@example.com' }, decision: 'ALLOW' },
    { operation: ['click'], args: { position: true }, decision: 'ASK' },
    { target: { role: ['link'], selector: '#external-*' }, decision: 'ASK' },
    { session: { windowUrl: 'https://prod.*' }, risk: ['HIGH'], decision: 'DENY' },
    { operation: ['setInputFiles'], decision: 'ASK' },
    { kind: 'query', decision: 'ALLOW' },
  ],
});
const redactor = new Redactor();
const dir = mkdtempSync(join(tmpdir(), 'stagegraph-bench-governance-'));
let i = 0;

function request(): GovernedRequest {
  i += 1;
  return {
    operation: 'click',
    kind: 'mutation',
    args: { target: { kind: 'element', role: 'button', name: 'Save' }, timeoutMs: 5_000, seq: i },
    session: {
      id: 's1',
      executablePath: '/opt/app/app',
      main: '/srv/app/main.js',
      windowTitle: 'Editor',
      windowUrl: 'file:///index.html',
    },
    target: {
      kind: 'element',
      role: 'button',
      name: 'Save draft',
      selector: '#save',
      bbox: { x: 10, y: 20, width: 80, height: 24 },
    },
  };
}

async function chokepoint(log: AuditLog): Promise<void> {
  const started = performance.now();
  const req = request();
  const verdict = policy.evaluate(req);
  await Promise.resolve(); // the mutation itself
  await log.append({
    client: { id: 'agent-1', role: 'agent' },
    operation: req.operation,
    kind: req.kind,
    arguments: redactor.redact(req.args, { operation: req.operation, target: req.target }),
    session: redactor.redact(req.session),
    target: redactor.redact(req.target),
    decision: verdict.decision,
    rule: verdict.rule,
    risk: verdict.risk,
    policySha256: policy.origin.sha256,
    approval: null,
    outcome: 'ok',
    errorCode: null,
    durationMs: performance.now() - started,
    evidence: [],
  });
}

const reference = await time(N, async () => {
  request();
  await Promise.resolve();
});
const evaluateOnly = await time(N, async () => {
  policy.evaluate(request());
  await Promise.resolve();
});
const intervalLog = await AuditLog.open(join(dir, 'interval'));
const full = await time(N, () => chokepoint(intervalLog));
await intervalLog.close();
const syncLog = await AuditLog.open(join(dir, 'sync'), { syncEveryRecord: true });
const fullSync = await time(Math.min(N, 1_000), () => chokepoint(syncLog));
await syncLog.close();
rmSync(dir, { recursive: true, force: true });

const us = (ms: number) => (ms * 1_000).toFixed(1);
function line(name: string, summary: Summary): string {
  const added = summary.median - reference.median;
  const share = added > 0 ? `${((added / CLICK_REFERENCE_MS) * 100).toFixed(2)}%` : '—';
  return `| ${name} | ${summary.n} | ${us(summary.median)} | ${us(summary.p95)} | ${us(Math.max(0, added))} | ${share} |`;
}

console.log(`## Governance chokepoint per mutation (node ${process.version})\n`);
console.log(`| what | n | median µs | p95 µs | added median µs | of a ${CLICK_REFERENCE_MS} ms click |`);
console.log('|---|---|---|---|---|---|');
console.log(line('reference: build request, await', reference));
console.log(line('+ policy evaluate (8 rules)', evaluateOnly));
console.log(line('+ evaluate, redact, audit append (fsync every 250 ms)', full));
console.log(line('+ evaluate, redact, audit append (fsync per record)', fullSync));
