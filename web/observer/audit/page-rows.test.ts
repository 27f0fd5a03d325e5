import { describe, expect, it } from 'vitest';
import type { AuditRecord, PagedRecord } from './audit-trail.js';
import { fillPage, liveRecord, placeLive } from './page-rows.js';
import { AUDIT_PAGE_SIZE } from './page-starts.js';

function sealed(seq: number): AuditRecord {
  return {
    replica: null,
    seq,
    time: '2026-12-08T00:00:00.000Z',
    operation: 'stop',
    decision: 'ALLOW',
    outcome: 'FAILED',
    risk: 'LOW',
    errorCode: 'SESSION_NOT_FOUND',
    durationMs: 1,
    client: { id: 'agent' },
    rule: { id: 'built-in:low' },
    session: null,
    target: null,
    approval: null,
  };
}

/** A record of a cluster's merged trail: its seq is its replica's, its cursor its number in the stream. */
const merged = (replica: string, seq: number, cursor: number): PagedRecord => ({
  ...sealed(seq),
  replica,
  cursor: String(cursor),
});

/** Without a cluster a record's cursor is its seq. */
const alone = (seq: number): PagedRecord => ({ ...sealed(seq), cursor: String(seq) });

/**
 * Replicas a and b sealing in turn from stream number `from` on, each counting its seqs from 1: a's seq n and
 * b's seq n both exist, and neither is the stream's number.
 */
function interleaved(from: number, count: number): PagedRecord[] {
  return Array.from({ length: count }, (_, index) =>
    merged(index % 2 ? 'b' : 'a', Math.floor(index / 2) + 1, from + index),
  );
}

const cursors = (rows: readonly PagedRecord[]) => rows.map((row) => row.cursor);

describe('liveRecord', () => {
  it("takes the subscription's cursor, in a cluster its number in the audit stream", () => {
    expect(liveRecord({ cursor: '812', record: sealed(3) }).cursor).toBe('812');
  });

  it("takes the seq without a cluster, where the subscription has no cursor and the trail's cursor is the seq", () => {
    expect(liveRecord({ cursor: null, record: sealed(3) }).cursor).toBe('3');
  });
});

describe('fillPage', () => {
  it('adds, at the end of the trail, only the streamed records that follow the read in the merged trail', () => {
    const trail = interleaved(101, 10);
    const read = trail.slice(0, 6);
    // Streamed while the page was read: the read took the first two, the last four came after it.
    const heldBack = trail.slice(4);
    const { rows, nextAfter } = fillPage(read, false, '100', heldBack);
    expect(cursors(rows)).toEqual(cursors(trail));
    expect(nextAfter).toBeNull();
  });

  it('adds every streamed record that follows the cursor read after when the read found none', () => {
    const heldBack = interleaved(101, 3);
    expect(cursors(fillPage([], false, '100', heldBack).rows)).toEqual(['101', '102', '103']);
    expect(cursors(fillPage([], false, '101', heldBack).rows)).toEqual(['102', '103']);
  });

  it('ends a full page at its last row, whose cursor (not its seq) starts the next page', () => {
    const trail = interleaved(201, AUDIT_PAGE_SIZE + 3);
    const read = trail.slice(0, AUDIT_PAGE_SIZE - 1);
    const { rows, nextAfter } = fillPage(read, false, '200', trail.slice(AUDIT_PAGE_SIZE - 2));
    expect(cursors(rows)).toEqual(cursors(trail.slice(0, AUDIT_PAGE_SIZE)));
    expect(nextAfter).toBe(String(200 + AUDIT_PAGE_SIZE));
  });

  it("starts the next page after the read's last cursor when the gateway has more", () => {
    const read = interleaved(301, 4);
    expect(fillPage(read, true, '300', interleaved(305, 2))).toEqual({ rows: read, nextAfter: '304' });
  });

  it('pages by seq without a cluster', () => {
    const trail = Array.from({ length: 8 }, (_, index) => alone(index + 1));
    const { rows, nextAfter } = fillPage(trail.slice(0, 5), false, null, trail.slice(3));
    expect(cursors(rows)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(nextAfter).toBeNull();
  });
});

describe('placeLive', () => {
  const lastPage = (rows: readonly PagedRecord[]) => ({ rows, hasNext: false, onLastPage: true });

  it("appends a record that follows the page's last row in the stream, whatever its replica's seq", () => {
    const rows = [merged('b', 40, 80)];
    expect(placeLive(lastPage(rows), merged('a', 3, 81))).toBe('appended');
  });

  it('ignores a record the page read already shows: it is neither shown twice nor counted as new', () => {
    const rows = [merged('a', 2, 79), merged('b', 40, 80)];
    expect(placeLive(lastPage(rows), merged('a', 2, 79))).toBe('shown');
    expect(placeLive(lastPage(rows), merged('b', 41, 78))).toBe('shown');
  });

  it('starts a newer page after a full last page, and counts the record as arrived', () => {
    const rows = interleaved(1, AUDIT_PAGE_SIZE);
    expect(placeLive(lastPage(rows), merged('a', 1, 60))).toBe('starts-next-page');
  });

  it('counts a record as arrived when an older page is shown', () => {
    const page = { rows: interleaved(1, 3), hasNext: true, onLastPage: false };
    expect(placeLive(page, merged('b', 1, 99))).toBe('arrived');
  });

  it('appends by seq without a cluster', () => {
    expect(placeLive(lastPage([alone(4)]), alone(5))).toBe('appended');
    expect(placeLive(lastPage([alone(4)]), alone(4))).toBe('shown');
  });
});
