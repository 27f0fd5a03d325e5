import { type FileHandle, open } from 'node:fs/promises';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { AuditFile } from './audit-files.js';
import { type AuditRecord, hashRecord } from './audit-record.js';

/** Bytes read per step when looking backwards for the last line; a typical record is well under this. */
const TAIL_CHUNK_BYTES = 64 * 1024;

export interface AuditTail {
  /** The last complete record, or null when the file holds none. */
  readonly record: AuditRecord | null;
  /** Length of the file up to and including the last complete line. */
  readonly completeBytes: number;
  /** Bytes after the last newline: a write torn by a crash. */
  readonly tornBytes: number;
}

/**
 * Finds the last complete record of a file without reading all of it, and checks that its hash seals it.
 * A corrupt complete line is AUDIT_BROKEN: continuing the chain from it would launder the damage.
 */
export async function readAuditTail(file: AuditFile): Promise<AuditTail> {
  const handle = await open(file.path, 'r');
  try {
    const size = (await handle.stat()).size;
    const lastNewline = await findLastNewline(handle, size);
    if (lastNewline < 0) return { record: null, completeBytes: 0, tornBytes: size };
    const lineStart = (await findLastNewline(handle, lastNewline)) + 1;
    const buffer = Buffer.alloc(lastNewline - lineStart);
    await handle.read(buffer, 0, buffer.length, lineStart);
    const record = parseSealed(buffer.toString('utf8'), file);
    return { record, completeBytes: lastNewline + 1, tornBytes: size - lastNewline - 1 };
  } finally {
    await handle.close();
  }
}

/** Position of the last `\n` before `end`, or -1. */
async function findLastNewline(handle: FileHandle, end: number): Promise<number> {
  let position = end;
  const chunk = Buffer.alloc(TAIL_CHUNK_BYTES);
  while (position > 0) {
    const start = Math.max(0, position - TAIL_CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, position - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index >= 0) return start + index;
    position = start;
  }
  return -1;
}

function parseSealed(line: string, file: AuditFile): AuditRecord {
  let record: AuditRecord;
  try {
    record = JSON.parse(line) as AuditRecord;
  } catch {
    throw broken(file, 'its last line is not JSON');
  }
  if (typeof record.seq !== 'number' || typeof record.hash !== 'string')
    throw broken(file, 'its last line is not a record');
  if (hashRecord(record) !== record.hash) throw broken(file, `record ${record.seq} does not match its hash`);
  return record;
}

function broken(file: AuditFile, why: string): StagegraphError {
  return new StagegraphError('AUDIT_BROKEN', `${file.path}: cannot continue the audit chain: ${why}.`, {
    details: { file: file.path },
  });
}
