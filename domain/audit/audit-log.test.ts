import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../governance/redaction.js';
import { AuditLog } from './audit-log.js';
import { type AuditEntry, GENESIS_HASH } from './audit-record.js';
import { verifyAudit } from './verify-audit.js';

const root = mkdtempSync(join(tmpdir(), 'stagegraph-audit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const freshDir = () => mkdtempSync(join(root, 'log-'));

const redactor = new Redactor();
const PASSWORD = 'planted-P4ssw0rd-xyzzy';

function entry(operation = 'click', overrides: Partial<AuditEntry> = {}): AuditEntry {
  const target = { kind: 'element' as const, role: 'textbox', name: 'Password', inputType: 'password' };
  return {
    client: { id: 'agent-1', role: 'agent' },
    operation,
    kind: 'mutation',
    arguments: redactor.redact({ target: { ref: 'e3' }, value: PASSWORD }, { target }),
    session: redactor.redact({ id: 's1', windowUrl: `https://app.test/login?password=${PASSWORD}` }),
    target: redactor.redact(target),
    decision: 'ALLOW',
    rule: { id: 'default:MEDIUM', index: null, description: 'default' },
    risk: 'MEDIUM',
    policySha256: null,
    approval: null,
    outcome: 'ok',
    errorCode: null,
    durationMs: 12.5,
    evidence: [{ kind: 'element-screenshot', sha256: 'ab'.repeat(32) }],
    ...overrides,
  };
}

describe('AuditLog', () => {
  it('chains records from the genesis hash, keeps no secret in clear, and verifies', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir);
    const first = await log.append(entry('fill'));
    const second = await log.append(
      entry('click', { outcome: 'denied', decision: 'DENY', errorCode: 'POLICY_DENIED' }),
    );
    await log.close();
    expect(first).toMatchObject({ seq: 1, prevHash: GENESIS_HASH });
    expect(second).toMatchObject({ seq: 2, prevHash: first.hash });
    const text = readFileSync(join(dir, 'audit-000001.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain('[REDACTED:secret]');
    expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 2, lastSeq: 2, lastHash: second.hash });
  });

  it('serialises concurrent appends into one gapless chain', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir);
    const records = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append(entry(`op${i}`))));
    await log.close();
    expect(records.map((record) => record.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(records.map((record) => record.operation)).toEqual(
      Array.from({ length: 200 }, (_, i) => `op${i}`),
    );
    expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 200 });
  });

  it('continues the chain after a restart, and cuts a torn last line', async () => {
    const dir = freshDir();
    const before = await AuditLog.open(dir);
    const last = await before.append(entry());
    await before.close();
    appendFileSync(join(dir, 'audit-000001.jsonl'), '{"seq":2,"half a rec');
    const after = await AuditLog.open(dir);
    expect(after.recovered).toMatchObject({ droppedBytes: 20 });
    expect(after.lastSeq).toBe(1);
    expect(await after.append(entry())).toMatchObject({ seq: 2, prevHash: last.hash });
    await after.close();
    expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 2 });
  });

  it('refuses to continue from a corrupt last record', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir);
    await log.append(entry());
    await log.close();
    const path = join(dir, 'audit-000001.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"click"', '"hover"'));
    await expect(AuditLog.open(dir)).rejects.toMatchObject({ code: 'AUDIT_BROKEN' });
  });

  it('rotates by size without breaking the chain, across restarts', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir, { maxFileBytes: 2_000 });
    for (let i = 0; i < 10; i += 1) await log.append(entry());
    await log.close();
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThan(2);
    const firstOfSecond = JSON.parse(readFileSync(join(dir, files[1]!), 'utf8').split('\n')[0]!);
    const lastOfFirst = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8').trim().split('\n').at(-1)!);
    expect(firstOfSecond.prevHash).toBe(lastOfFirst.hash);
    const reopened = await AuditLog.open(dir, { maxFileBytes: 2_000 });
    expect((await reopened.append(entry())).seq).toBe(11);
    await reopened.close();
    expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 11, files: readdirSync(dir).length });
  });

  it('verifyAudit reports the first tampered, deleted or reordered record by file, line and seq', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir, { maxFileBytes: 2_000 });
    for (let i = 0; i < 8; i += 1) await log.append(entry(`op${i}`));
    await log.close();
    const files = readdirSync(dir).sort();
    const path = join(dir, files[1]!);
    const original = readFileSync(path, 'utf8');
    const lines = original.trim().split('\n');

    writeFileSync(path, original.replace(/"durationMs":12.5/, '"durationMs":1'));
    expect((await verifyAudit(dir)).broken).toMatchObject({
      file: files[1],
      line: 1,
      seq: JSON.parse(lines[0]!).seq,
      reason: expect.stringMatching(/does not match its hash/),
    });

    writeFileSync(path, `${lines.slice(1).join('\n')}\n`);
    expect((await verifyAudit(dir)).broken).toMatchObject({
      file: files[1],
      line: 1,
      reason: expect.stringMatching(/follows/),
    });

    writeFileSync(path, original);
    rmSync(join(dir, files[0]!));
    expect((await verifyAudit(dir)).broken?.reason).toMatch(/file number 1 is missing/);
  });

  it('reads pages after a cursor with filters, and streams new records to subscribers', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir, { maxFileBytes: 3_000 });
    const denied = log.subscribe({ outcomes: ['denied'] });
    for (let i = 0; i < 12; i += 1)
      await log.append(entry(i % 3 === 0 ? 'fill' : 'click', i % 4 === 0 ? { outcome: 'denied' } : {}));
    const page = await log.read({ first: 5 });
    expect(page.records.map((record) => record.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(page).toMatchObject({ hasNextPage: true, endCursor: 5 });
    const rest = await log.read({ first: 100, after: page.endCursor });
    expect(rest.records.map((record) => record.seq)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(rest.hasNextPage).toBe(false);
    const fills = await log.read({ filter: { operations: ['fill'] } });
    expect(fills.records.map((record) => record.seq)).toEqual([1, 4, 7, 10]);
    expect(denied.pending).toBe(3);
    const delivered = (await denied.next()).value!.event;
    expect(delivered.seq).toBe(1);
    expect(JSON.stringify([delivered, page, rest])).not.toContain(PASSWORD);
    await log.close();
    expect(denied.closed).toBe(true);
  });

  it('syncEveryRecord still verifies, and appends after close are refused', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir, { syncEveryRecord: true });
    await log.append(entry());
    await log.close();
    await expect(log.append(entry())).rejects.toMatchObject({ code: 'AUDIT_BROKEN' });
    expect((await verifyAudit(dir)).ok).toBe(true);
  });
});
