import { createReadStream } from 'node:fs';
import { relative } from 'node:path';
import { createInterface } from 'node:readline';
import { listAuditFiles } from './audit-files.js';
import { type AuditRecord, GENESIS_HASH, hashRecord } from './audit-record.js';

/** The first record that does not hold: where it is and what is wrong with it. */
export interface BrokenRecord {
  /** Relative to the audit directory. */
  readonly file: string;
  /** 1-based line within the file. */
  readonly line: number;
  /** Null when the line is not a record at all. */
  readonly seq: number | null;
  readonly reason: string;
}

/** A line that is not a record but that the chain goes on across, or that ends the log: a write torn by a crash. */
export interface TornLine {
  /** Relative to the audit directory. */
  readonly file: string;
  /** 1-based line within the file. */
  readonly line: number;
  readonly bytes: number;
}

/** A log's last record as its writer declared it outside the log. */
export interface AuditCheckpoint {
  readonly seq: number;
  readonly hash: string;
}

/** Torn lines listed at most: one comes of each crash mid-write, so more than this is not crashes. */
export const MAX_TORN_LINES_LISTED = 100;

export interface AuditVerification {
  readonly ok: boolean;
  readonly files: number;
  /** Records verified before the first broken one (all of them when ok). */
  readonly records: number;
  readonly lastSeq: number;
  readonly lastHash: string;
  readonly broken: BrokenRecord | null;
  /** Torn writes the chain holds across (oldest first, at most MAX_TORN_LINES_LISTED); they do not make it fail. */
  readonly torn: readonly TornLine[];
}

/**
 * Recomputes the whole chain across the directory's files: each record's hash over its canonical JSON,
 * its link to the previous record (across file boundaries), gapless seq from 1, and gapless file numbers.
 * Any edit, insertion, deletion or reordering of a record breaks one of these at or after it. A line that is
 * not JSON is a write torn by a crash (kill -9 mid-write; the restart ends it with a newline and continues the
 * chain after the last whole record) when the next record continues the chain from the record before it, or
 * when nothing follows it: listed in `torn`. Otherwise it is where the chain breaks.
 */
export async function verifyAudit(
  dir: string,
  /**
   * The last record this log's writer declared elsewhere (cluster mode keeps one per replica in Redis): a
   * chain that ends before it had its tail cut, and one whose record at its seq has another hash was
   * rewritten from there — neither shows in a chain that is only recomputed from its own files.
   */
  checkpoint: AuditCheckpoint | null = null,
): Promise<AuditVerification> {
  const files = await listAuditFiles(dir);
  let records = 0;
  let lastSeq = 0;
  let lastHash = GENESIS_HASH;
  const torn: TornLine[] = [];
  /** Lines since the last record that are not JSON: torn if the chain goes on after them. */
  let fragments: TornLine[] = [];
  const note = (fragment: TornLine) => {
    if (torn.length + fragments.length < MAX_TORN_LINES_LISTED) fragments.push(fragment);
  };
  const result = (broken: BrokenRecord | null): AuditVerification => ({
    ok: broken === null,
    files: files.length,
    records,
    lastSeq,
    lastHash,
    broken,
    torn: [...torn, ...fragments],
  });
  for (const [index, file] of files.entries()) {
    const name = relative(dir, file.path);
    if (file.number !== index + 1)
      return result({
        file: name,
        line: 0,
        seq: null,
        reason: `file number ${index + 1} is missing before it`,
      });
    const lines = createInterface({ input: createReadStream(file.path), crlfDelay: Infinity });
    let lineNumber = 0;
    try {
      for await (const line of lines) {
        lineNumber += 1;
        const at = (seq: number | null, reason: string) => {
          // A record after lines that are not JSON that does not continue the chain: the damage is there.
          const [fragment] = fragments;
          fragments = [];
          return fragment
            ? result({
                file: fragment.file,
                line: fragment.line,
                seq: null,
                reason:
                  'not JSON, and the record after it does not continue the chain (a record was edited or removed here)',
              })
            : result({ file: name, line: lineNumber, seq, reason });
        };
        let record: AuditRecord;
        try {
          record = JSON.parse(line) as AuditRecord;
        } catch {
          note({ file: name, line: lineNumber, bytes: Buffer.byteLength(line) });
          continue;
        }
        if (typeof record !== 'object' || record === null || typeof record.seq !== 'number')
          return at(null, 'not an audit record');
        if (record.seq !== lastSeq + 1) return at(record.seq, `seq ${record.seq} follows ${lastSeq}`);
        if (record.prevHash !== lastHash)
          return at(
            record.seq,
            `prevHash ${String(record.prevHash)} is not the previous record's hash ${lastHash}`,
          );
        const recomputed = hashRecord(record);
        if (record.hash !== recomputed)
          return at(record.seq, `the content does not match its hash (recomputed ${recomputed})`);
        if (checkpoint?.seq === record.seq && checkpoint.hash !== record.hash)
          return at(
            record.seq,
            `the hash is not the one checkpointed for seq ${record.seq} (${checkpoint.hash}): the chain was rewritten from here`,
          );
        torn.push(...fragments);
        fragments = [];
        records += 1;
        lastSeq = record.seq;
        lastHash = record.hash;
      }
    } finally {
      lines.close();
    }
  }
  if (checkpoint && checkpoint.seq > lastSeq)
    return result({
      file: files.length > 0 ? relative(dir, files[files.length - 1]!.path) : '',
      line: 0,
      seq: checkpoint.seq,
      reason: `the chain ends at seq ${lastSeq}, but seq ${checkpoint.seq} was checkpointed: records were cut from its end`,
    });
  return result(null);
}
