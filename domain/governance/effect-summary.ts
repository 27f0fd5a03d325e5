import type { AuditEffect } from '../audit/audit-record.js';
import type { SnapshotDiff } from '../snapshot/diff.js';

/**
 * The counts of the diff an operation answered with, for its audit record; undefined when it answered
 * none (the agent did not select `diff`, or the operation has no window). Results are read structurally:
 * the chokepoint governs every mutation and knows none of their result types.
 */
export function effectOf(result: unknown): AuditEffect | undefined {
  if (typeof result !== 'object' || result === null || !('diff' in result)) return undefined;
  const diff = (result as { diff: unknown }).diff;
  if (!isDiff(diff)) return undefined;
  return {
    added: diff.added.length,
    removed: diff.removed.length,
    changed: diff.changed.length,
    documentReplaced: diff.documentReplaced,
  };
}

function isDiff(value: unknown): value is SnapshotDiff {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<SnapshotDiff>;
  return (
    Array.isArray(candidate.added) &&
    Array.isArray(candidate.removed) &&
    Array.isArray(candidate.changed) &&
    typeof candidate.documentReplaced === 'boolean'
  );
}
