import { AppText } from '../app-text.js';
import { type Column, DataTable } from '../data-table.js';
import type { AuditRecord, PagedRecord } from './audit-trail.js';

/** In a cluster's merged trail: seqs are each replica's own, so a row says whose it is. */
const REPLICA: Column<AuditRecord> = {
  header: 'replica',
  cell: (record) => <AppText text={record.replica} />,
};

const COLUMNS: readonly Column<AuditRecord>[] = [
  { header: 'seq', rowHeader: true, cell: (record) => record.seq },
  {
    header: 'time',
    cell: (record) => (
      <time dateTime={record.time} title={record.time}>
        {new Date(record.time).toLocaleTimeString()}
      </time>
    ),
  },
  { header: 'client', cell: (record) => <AppText text={record.client.id} /> },
  { header: 'operation', cell: (record) => <AppText text={record.operation} /> },
  { header: 'session', cell: (record) => <AppText text={record.session?.id} /> },
  {
    header: 'target',
    cell: ({ target }) =>
      target ? (
        <>
          <AppText text={target.role} /> “<AppText text={target.name} />”
        </>
      ) : null,
  },
  { header: 'decision', cell: (record) => <Decision record={record} /> },
  { header: 'rule', cell: (record) => <AppText text={record.rule.id} /> },
  { header: 'risk', cell: (record) => record.risk },
  { header: 'outcome', cell: (record) => record.outcome },
  { header: 'errorCode', cell: (record) => record.errorCode ?? '' },
  { header: 'durationMs', class: 'number', cell: (record) => record.durationMs.toFixed(1) },
];

/** One page of audit records under proper column headers; in a cluster, with each record's replica first. */
export function AuditTable(props: { rows: PagedRecord[]; caption: string }) {
  const clustered = props.rows.some((record) => record.replica !== null);
  return (
    <DataTable<PagedRecord>
      label={props.caption}
      caption={props.caption}
      columns={clustered ? [REPLICA, ...COLUMNS] : COLUMNS}
      rows={props.rows}
      rowKey={(record) => record.cursor}
      rowClass={(record) => `outcome-${record.outcome.toLowerCase()}`}
    />
  );
}

function Decision(props: { record: AuditRecord }) {
  const { decision, approval } = props.record;
  return (
    <>
      {decision}
      {approval ? (
        <span class="approval-note">
          {' '}
          ({approval.status.toLowerCase()} by <AppText text={approval.decidedBy} />
          {approval.scope ? `, ${approval.scope.toLowerCase()}` : ''})
        </span>
      ) : null}
    </>
  );
}
