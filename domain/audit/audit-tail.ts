import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { AuditFile } from './audit-files.js';
import { type AuditRecord, hashRecord } from './audit-record.js';

/** Bytes read per step when looking backwards for the last line; a typical record is well under this. */
const TAIL_CHUNK_BYTES = 64 * 1024;

/**
 * Lines that are not records allowed between the last record and the end of a file. Each crash mid-write
 * leaves at most one, and a restart ends it with a newline; so many in a row means something else wrote there.
 */
export const MAX_FRAGMENTS_AT_END = 16;

export interface AuditTail {
  /** The last whole-line record, or null when the file holds none. */
  readonly record: AuditRecord | null;
  /** Bytes after the last newline: a write cut short by a crash. */
  readonly tornBytes: number;
  /** The torn bytes when they are a whole sealed record that lost only its newline; null otherwise. */
  readonly tornRecord: AuditRecord | null;
}

/**
 * Finds the last record of a file without reading all of it, and checks that its hash seals it. Lines after it
 * that are not JSON are fragments of earlier torn writes and are passed over (verifyAudit reports them). A
 * corrupt last record is AUDIT_BROKEN: continuing the chain from it would launder the damage.
 */
export async function readAuditTail(file: AuditFile): Promise<AuditTail> {
  const handle = await open(file.path, 'r');
  try {
    const size = (await handle.stat()).size;
    let end = await findLastNewline(handle, size);
    const tornBytes = size - end - 1;
    const tornRecord = tornBytes > 0 ? sealedOrNull(await readRange(handle, end + 1, size)) : null;
    for (let fragments = 0; end >= 0; fragments += 1) {
      if (fragments > MAX_FRAGMENTS_AT_END)
        throw broken(file, `more than ${MAX_FRAGMENTS_AT_END} lines at its end are not records`);
      const start = (await findLastNewline(handle, end)) + 1;
      const line = await readRange(handle, start, end);
      const record = parseOrNull(line);
      if (record !== undefined) return { record: sealed(record, file), tornBytes, tornRecord };
      end = start - 1;
    }
    return { record: null, tornBytes, tornRecord };
  } finally {
    await handle.close();
  }
}

/** The 1-based number of the line that starts at byte `offset` (counted by the newlines before it). */
export async function lineAt(file: AuditFile, offset: number): Promise<number> {
  if (offset === 0) return 1;
  let newlines = 0;
  for await (const chunk of createReadStream(file.path, { start: 0, end: offset - 1 }))
    for (const byte of chunk as Buffer) if (byte === 0x0a) newlines += 1;
  return newlines + 1;
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

async function readRange(handle: FileHandle, start: number, end: number): Promise<string> {
  const buffer = Buffer.alloc(end - start);
  await handle.read(buffer, 0, buffer.length, start);
  return buffer.toString('utf8');
}

/** The parsed line; undefined when it is not JSON at all (a fragment of a torn write). */
function parseOrNull(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

function sealedOrNull(text: string): AuditRecord | null {
  const value = parseOrNull(text);
  return isRecord(value) && hashRecord(value) === value.hash ? value : null;
}

function sealed(value: unknown, file: AuditFile): AuditRecord {
  if (!isRecord(value)) throw broken(file, 'its last line is not a record');
  if (hashRecord(value) !== value.hash) throw broken(file, `record ${value.seq} does not match its hash`);
  return value;
}

function isRecord(value: unknown): value is AuditRecord {
  const record = value as AuditRecord | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.seq === 'number' &&
    typeof record.hash === 'string'
  );
}

function broken(file: AuditFile, why: string): StagegraphError {
  return new StagegraphError('AUDIT_BROKEN', `${file.path}: cannot continue the audit chain: ${why}.`, {
    details: { file: file.path },
  });
}
