import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { faultsAvailable, mountFragileDisk, mountSmallDisk } from '../../test/helpers/faulty-filesystem.js';
import { AuditLog } from './audit-log.js';
import type { AuditEntry } from './audit-record.js';
import { AUDIT_RESERVE_BYTES, AUDIT_RESERVE_NAME } from './audit-reserve.js';
import { verifyAudit } from './verify-audit.js';

/** tmpfs gives out space a page at a time. */
const PAGE_BYTES = 4096;

const root = mkdtempSync(join(tmpdir(), 'stagegraph-audit-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function entry(operation = 'click', arguments_ = '{}'): AuditEntry {
  return {
    client: { id: 'agent-1', role: 'agent' },
    operation,
    kind: 'mutation',
    arguments: arguments_ as unknown as AuditEntry['arguments'],
    session: null,
    target: null,
    decision: 'ALLOW',
    rule: { id: 'default:MEDIUM', index: null, description: 'default' },
    risk: 'MEDIUM',
    policySha256: null,
    approval: null,
    outcome: 'ok',
    errorCode: null,
    durationMs: 1,
    evidence: [],
  };
}

const seqsIn = (dir: string) =>
  readFileSync(join(dir, 'audit-000001.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { seq: number }).seq);

/** Whether this process may set the immutable flag (root on a filesystem that has it). */
function canMakeImmutable(): boolean {
  const probe = join(root, 'immutable-probe');
  try {
    execFileSync('touch', [probe]);
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('AuditLog when its folder cannot be written', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  /** An audit log on a 1 MiB disk of its own, holding one record; both are undone after the test. */
  async function logOnSmallDisk() {
    const disk = await mountSmallDisk(1024 * 1024);
    cleanups.push(() => disk.unmount());
    const log = await AuditLog.open(disk.dir);
    cleanups.push(() => log.close());
    await log.append(entry());
    return { disk, log };
  }
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(!canMakeImmutable())(
    'refuses before acting while its file is immutable (which stops even root), and accepts again after',
    async () => {
      const dir = mkdtempSync(join(root, 'immutable-'));
      const reports: string[] = [];
      const log = await AuditLog.open(dir, { report: (line) => reports.push(line) });
      await log.append(entry());
      const file = join(dir, 'audit-000001.jsonl');
      execFileSync('chattr', ['+i', file]);
      cleanups.push(() => {
        execFileSync('chattr', ['-i', file]);
      });
      await expect(log.ready()).rejects.toMatchObject({
        code: 'AUDIT_UNAVAILABLE',
        retryable: true,
        details: { dir, errno: 'EPERM' },
      });
      await expect(log.ready()).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
      execFileSync('chattr', ['-i', file]);
      await log.ready();
      expect((await log.append(entry())).seq).toBe(2);
      await log.close();
      expect(reports).toEqual([
        expect.stringMatching(/cannot be written \(EPERM\)/),
        expect.stringMatching(/can be written again; writing the 0 records held/),
      ]);
      expect(await verifyAudit(dir)).toMatchObject({ ok: true, records: 2 });
    },
  );

  it.skipIf(!faultsAvailable())(
    'refuses to open on a disk with no room for its reserve with AUDIT_UNAVAILABLE naming ENOSPC, not a raw error',
    async () => {
      const disk = await mountSmallDisk(1024 * 1024);
      cleanups.push(() => disk.unmount());
      await disk.fill();
      await expect(AuditLog.open(disk.dir)).rejects.toMatchObject({
        code: 'AUDIT_UNAVAILABLE',
        details: { errno: 'ENOSPC' },
      });
    },
  );

  it.skipIf(!faultsAvailable())(
    'on a full disk writes the records in flight on its reserve, then refuses until there is room, then goes on',
    async () => {
      const { disk, log } = await logOnSmallDisk();
      await disk.fill();
      // Acted before the disk filled: its record (larger than a page, so it needs new ones) lands on the
      // reserve's room.
      expect((await log.append(entry('acted', 'x'.repeat(2 * PAGE_BYTES)))).seq).toBe(2);
      expect(readFileSync(join(disk.dir, AUDIT_RESERVE_NAME)).length).toBe(0);
      await expect(log.ready()).rejects.toMatchObject({
        code: 'AUDIT_UNAVAILABLE',
        details: { errno: 'ENOSPC' },
      });
      // The records of operations still acting go on landing on the reserve's room.
      expect((await log.append(entry('in flight', 'x'.repeat(2 * PAGE_BYTES)))).seq).toBe(3);
      await expect(log.ready()).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
      await disk.free();
      await log.ready();
      expect((await log.append(entry('after'))).seq).toBe(4);
      expect(readFileSync(join(disk.dir, AUDIT_RESERVE_NAME)).length).toBe(AUDIT_RESERVE_BYTES);
      expect((await log.read()).records.map((record) => record.operation)).toEqual([
        'click',
        'acted',
        'in flight',
        'after',
      ]);
      expect(await verifyAudit(disk.dir)).toMatchObject({ ok: true, records: 4, torn: [] });
    },
  );

  it.skipIf(!faultsAvailable())(
    'cuts the partial line a full disk leaves, keeps the whole ones, and writes the rest once there is room',
    async () => {
      const { disk, log } = await logOnSmallDisk();
      // No reserve to fall back on: the bare behaviour of a write the disk cuts short.
      unlinkSync(join(disk.dir, AUDIT_RESERVE_NAME));
      // Room for a page and the rest of the file's last one, and a batch of ten that needs three pages.
      await disk.fill(PAGE_BYTES);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => log.append(entry(`op${i}`, 'x'.repeat(1_200)))),
      );
      expect(results.some((result) => result.status === 'rejected')).toBe(true);
      const written = results.filter((result) => result.status === 'fulfilled').length;
      expect(seqsIn(disk.dir)).toEqual(Array.from({ length: written + 1 }, (_, i) => i + 1));
      expect(log.heldRecords).toBe(10 - written);
      await disk.free();
      await log.ready();
      expect(seqsIn(disk.dir)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
      expect(await verifyAudit(disk.dir)).toMatchObject({ ok: true, records: 11, torn: [] });
    },
  );

  it.skipIf(!faultsAvailable())(
    'lets go of its file when the filesystem turns read-only, so it can be repaired, and goes on after',
    async () => {
      const disk = await mountFragileDisk(16);
      cleanups.push(() => disk.unmount());
      const log = await AuditLog.open(disk.dir);
      cleanups.push(() => log.close());
      await log.append(entry());
      await disk.breakIt();
      await expect(log.ready()).rejects.toMatchObject({
        code: 'AUDIT_UNAVAILABLE',
        details: { errno: 'EROFS' },
      });
      await expect(log.append(entry('held'))).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
      // Unmounting needs every file on it closed: the log holds none now.
      await disk.repair();
      await log.ready();
      expect((await log.append(entry('after'))).seq).toBe(3);
      expect((await log.read()).records.map((record) => record.operation)).toEqual([
        'click',
        'held',
        'after',
      ]);
      expect(await verifyAudit(disk.dir)).toMatchObject({ ok: true, records: 3 });
    },
  );

  it.skipIf(!faultsAvailable())(
    'writes again the records a failing filesystem lost since the last sync, so the chain has no hole',
    async () => {
      // No sync timer fires: every record below is still unsynced when the filesystem fails.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      cleanups.push(() => {
        vi.useRealTimers();
      });
      const disk = await mountFragileDisk(16);
      cleanups.push(() => disk.unmount());
      const reports: string[] = [];
      const log = await AuditLog.open(disk.dir, { report: (line) => reports.push(line) });
      cleanups.push(() => log.close());
      for (let i = 0; i < 5; i += 1) await log.append(entry(`op${i}`));
      await disk.breakIt();
      await expect(log.ready()).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
      await disk.repair();
      await log.ready();
      expect(reports.at(-1)).toMatch(/wrote again \d+ bytes of records the filesystem had lost/);
      expect((await log.append(entry('after'))).seq).toBe(6);
      expect(await verifyAudit(disk.dir)).toMatchObject({ ok: true, records: 6 });
    },
  );
});
