import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Decision } from '../governance/policy/policy-spec.js';
import type { AuditFile } from './audit-files.js';
import { type AuditOutcome, type AuditRecord, GENESIS_HASH } from './audit-record.js';

/** Records per page when the caller names no `first`. */
export const DEFAULT_AUDIT_PAGE = 50;
/** A page is one response; more than this is an export, which reads the files directly. */
export const MAX_AUDIT_PAGE = 500;

/** Absent or empty fields match anything; lists match any of their values. */
export interface AuditFilter {
  readonly operations?: readonly string[] | null;
  readonly outcomes?: readonly AuditOutcome[] | null;
  readonly decisions?: readonly Decision[] | null;
  readonly sessionId?: string | null;
  readonly clientId?: string | null;
  readonly since?: Date | null;
  readonly until?: Date | null;
}

export interface AuditQuery {
  readonly first?: number | null;
  /** A cursor: the `seq` of the last record already seen. */
  readonly after?: number | null;
  readonly filter?: AuditFilter | null;
}

export interface AuditPage {
  readonly records: readonly AuditRecord[];
  readonly hasNextPage: boolean;
  /** The `seq` to pass as `after` for the next page; null when the page is empty. */
  readonly endCursor: number | null;
}

export function matchesAuditFilter(record: AuditRecord, filter: AuditFilter | null | undefined): boolean {
  if (!filter) return true;
  const anyOf = <T>(values: readonly T[] | null | undefined, value: T) =>
    !values || values.length === 0 || values.includes(value);
  if (!anyOf(filter.operations, record.operation)) return false;
  if (!anyOf(filter.outcomes, record.outcome)) return false;
  if (!anyOf(filter.decisions, record.decision)) return false;
  if (filter.sessionId != null && record.session?.id !== filter.sessionId) return false;
  if (filter.clientId != null && record.client.id !== filter.clientId) return false;
  if (filter.since != null && record.time < filter.since.toISOString()) return false;
  if (filter.until != null && record.time > filter.until.toISOString()) return false;
  return true;
}

export function clampAuditPage(first: number | null | undefined): number {
  if (first == null || !Number.isFinite(first)) return DEFAULT_AUDIT_PAGE;
  return Math.min(MAX_AUDIT_PAGE, Math.max(1, Math.floor(first)));
}

/**
 * One page of records after the cursor, oldest first. `files` come with the byte length to read, so a
 * line being appended while the page is read is never half-seen.
 */
export async function readAuditPage(
  files: readonly { readonly file: AuditFile; readonly bytes: number }[],
  query: AuditQuery,
): Promise<AuditPage> {
  const first = clampAuditPage(query.first);
  const after = query.after ?? 0;
  const records: AuditRecord[] = [];
  let lastHash = GENESIS_HASH;
  // A line that is not JSON is a write torn by a crash only when the chain goes on across it (or it ends the
  // log); anything else is damage, which a reader reports rather than pages around.
  let fragment: { readonly file: AuditFile; readonly line: number } | null = null;
  for (const { file, bytes } of files) {
    if (bytes === 0) continue;
    const lines = createInterface({
      input: createReadStream(file.path, { start: 0, end: bytes - 1 }),
      crlfDelay: Infinity,
    });
    let lineNumber = 0;
    try {
      for await (const line of lines) {
        lineNumber += 1;
        if (line === '') continue;
        const record = parseRecord(line);
        if (record === null) throw brokenAt(file, lineNumber, 'is JSON but not an audit record');
        if (record === undefined) {
          fragment ??= { file, line: lineNumber };
          continue;
        }
        if (fragment && record.prevHash !== lastHash)
          throw brokenAt(
            fragment.file,
            fragment.line,
            'is not a record, and the chain does not go on after it',
          );
        fragment = null;
        lastHash = record.hash;
        if (record.seq <= after || !matchesAuditFilter(record, query.filter)) continue;
        if (records.length === first) return { records, hasNextPage: true, endCursor: records.at(-1)!.seq };
        records.push(record);
      }
    } finally {
      lines.close();
    }
  }
  return { records, hasNextPage: false, endCursor: records.at(-1)?.seq ?? null };
}

/** The record on a line; undefined when the line is not JSON (a torn write), null when it is other JSON. */
function parseRecord(line: string): AuditRecord | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const record = value as AuditRecord | null;
  return typeof record === 'object' && record !== null && typeof record.seq === 'number' ? record : null;
}

function brokenAt(file: AuditFile, line: number, what: string): StagegraphError {
  return new StagegraphError(
    'AUDIT_BROKEN',
    `Line ${line} of ${file.name} in the audit folder ${what}: the audit trail cannot be read past it.`,
    { details: { file: file.name, line } },
  );
}
