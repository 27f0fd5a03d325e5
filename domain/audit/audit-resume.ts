import { relative } from 'node:path';
import { type AuditFile, auditFile, fileSizeOf, listAuditFiles } from './audit-files.js';
import { type AuditRecord, GENESIS_HASH } from './audit-record.js';
import { lineAt, readAuditTail } from './audit-tail.js';

/**
 * What opening found after the last line's newline: a write torn by a crash (kept as it is, ended with a
 * newline, reported by verifyAudit; the chain continues after the last whole record), or a whole record that
 * lost only its newline (completed, and the chain continues from it).
 */
export interface AuditRecovery {
  /** Relative to the audit directory. */
  readonly file: string;
  /** 1-based line of the torn write in that file. */
  readonly line: number;
  readonly bytes: number;
  readonly completed: boolean;
}

export interface ResumedChain {
  /** The file to append to. */
  readonly newest: AuditFile;
  readonly seq: number;
  readonly lastHash: string;
  /** Non-null when the newest file ends in bytes after its last newline; the caller ends them with one. */
  readonly recovered: AuditRecovery | null;
}

/**
 * Where a log left on disk continues: its last record (AUDIT_BROKEN when that is corrupt) and what follows
 * its last newline. A crash mid-write leaves a torn line there, which is never cut: it is evidence.
 */
export async function resumeChain(dir: string): Promise<ResumedChain> {
  const files = await listAuditFiles(dir);
  const newest = files.at(-1) ?? auditFile(dir, 1);
  let seq = 0;
  let lastHash = GENESIS_HASH;
  let torn: { bytes: number; record: AuditRecord | null } | null = null;
  // Newest first: an empty newest file (rotated just before a crash) continues the chain of the one before.
  for (const file of [...files].reverse()) {
    const tail = await readAuditTail(file);
    if (file === newest && tail.tornBytes > 0) torn = { bytes: tail.tornBytes, record: tail.tornRecord };
    if (tail.record) {
      seq = tail.record.seq;
      lastHash = tail.record.hash;
      break;
    }
  }
  if (!torn) return { newest, seq, lastHash, recovered: null };
  const completed = torn.record?.seq === seq + 1 && torn.record.prevHash === lastHash;
  const recovered = {
    file: relative(dir, newest.path),
    line: await lineAt(newest, (await fileSizeOf(newest.path)) - torn.bytes),
    bytes: torn.bytes,
    completed,
  };
  return completed
    ? { newest, seq: torn.record!.seq, lastHash: torn.record!.hash, recovered }
    : { newest, seq, lastHash, recovered };
}
