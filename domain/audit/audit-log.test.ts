import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../governance/redaction/redaction.js';
import { AuditLog } from './audit-log.js';
import { type AuditEntry, GENESIS_HASH } from './audit-record.js';
import { verifyAudit } from './verify-audit.js';

const root = mkdtempSync(join(tmpdir(), 'stagegraph-audit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const freshDir = () => mkdtempSync(join(root, 'log-'));
/** The log's own files, without the disk reserve beside them. */
const auditFilesIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();

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

  it('continues the chain after a restart, keeping a torn last line as a line of its own', async () => {
    const dir = freshDir();
    const before = await AuditLog.open(dir);
    const last = await before.append(entry());
    await before.close();
    appendFileSync(join(dir, 'audit-000001.jsonl'), '{"seq":2,"half a rec');
    const after = await AuditLog.open(dir);
    expect(after.recovered).toEqual({ file: 'audit-000001.jsonl', line: 2, bytes: 20, completed: false });
    expect(after.lastSeq).toBe(1);
    expect(await after.append(entry())).toMatchObject({ seq: 2, prevHash: last.hash });
    expect((await after.read()).records.map((record) => record.seq)).toEqual([1, 2]);
    await after.close();
    expect(readFileSync(join(dir, 'audit-000001.jsonl'), 'utf8').split('\n')[1]).toBe('{"seq":2,"half a rec');
    expect(await verifyAudit(dir)).toMatchObject({
      ok: true,
      records: 2,
      broken: null,
      torn: [{ file: 'audit-000001.jsonl', line: 2, bytes: 20 }],
    });
  });

  it('completes a last record that lost only its newline, and passes over torn lines a crash left at the end', async () => {
    const dir = freshDir();
    const path = join(dir, 'audit-000001.jsonl');
    const first = await AuditLog.open(dir);
    await first.append(entry());
    const whole = await first.append(entry());
    await first.close();
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, -1));
    const second = await AuditLog.open(dir);
    expect(second.recovered).toMatchObject({ line: 2, completed: true });
    expect(second.lastSeq).toBe(2);
    await second.close();
    // Two crashes mid-write in a row, with nothing written between them.
    appendFileSync(path, '{"seq":3,"cut');
    await (await AuditLog.open(dir)).close();
    appendFileSync(path, '{"seq":3,"cut again');
    const third = await AuditLog.open(dir);
    expect(third.recovered).toMatchObject({ line: 4, completed: false });
    expect(await third.append(entry())).toMatchObject({ seq: 3, prevHash: whole.hash });
    await third.close();
    expect(await verifyAudit(dir)).toMatchObject({
      ok: true,
      records: 3,
      torn: [
        { line: 3, bytes: 13 },
        { line: 4, bytes: 19 },
      ],
    });
  });

  it('names a line that is not a record where the chain does not go on after it, and reading stops there', async () => {
    const dir = freshDir();
    const path = join(dir, 'audit-000001.jsonl');
    const log = await AuditLog.open(dir);
    for (let i = 0; i < 3; i += 1) await log.append(entry());
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = 'not a record';
    writeFileSync(path, lines.join('\n'));
    expect((await verifyAudit(dir)).broken).toMatchObject({ line: 2, seq: null, reason: /record after it/ });
    await expect(log.read()).rejects.toMatchObject({ code: 'AUDIT_BROKEN', details: { line: 2 } });
    lines[1] = '{"seq":"two"}';
    writeFileSync(path, lines.join('\n'));
    await expect(log.read()).rejects.toMatchObject({ code: 'AUDIT_BROKEN', details: { line: 2 } });
    await log.close();
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
    const files = auditFilesIn(dir);
    expect(files.length).toBeGreaterThan(2);
    const firstOfSecond = JSON.parse(readFileSync(join(dir, files[1]!), 'utf8').split('\n')[0]!);
    const lastOfFirst = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8').trim().split('\n').at(-1)!);
    expect(firstOfSecond.prevHash).toBe(lastOfFirst.hash);
    const reopened = await AuditLog.open(dir, { maxFileBytes: 2_000 });
    expect((await reopened.append(entry())).seq).toBe(11);
    await reopened.close();
    expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 11, files: auditFilesIn(dir).length });
  });

  it('verifyAudit reports the first tampered, deleted or reordered record by file, line and seq', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir, { maxFileBytes: 2_000 });
    for (let i = 0; i < 8; i += 1) await log.append(entry(`op${i}`));
    await log.close();
    const files = auditFilesIn(dir);
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

describe('verifyAudit against a checkpoint kept outside the log', () => {
  it('holds when the checkpointed record is there with its hash, and names a cut tail or a rewritten record', async () => {
    const dir = freshDir();
    const log = await AuditLog.open(dir);
    const records = [];
    for (const operation of ['click', 'fill', 'press']) records.push(await log.append(entry(operation)));
    await log.close();
    const second = records[1]!;

    expect(await verifyAudit(dir, { seq: second.seq, hash: second.hash })).toMatchObject({
      ok: true,
      records: 3,
    });
    expect(await verifyAudit(dir, { seq: 5, hash: 'f'.repeat(64) })).toMatchObject({
      ok: false,
      broken: { seq: 5, line: 0, reason: expect.stringMatching(/ends at seq 3, but seq 5 was checkpointed/) },
    });
    expect(await verifyAudit(dir, { seq: second.seq, hash: 'f'.repeat(64) })).toMatchObject({
      ok: false,
      records: 1,
      broken: { seq: 2, line: 2, reason: expect.stringMatching(/not the one checkpointed for seq 2/) },
    });
  });
});
