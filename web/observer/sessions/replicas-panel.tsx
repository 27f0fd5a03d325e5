import { AppText } from '../app-text.js';
import { type Column, DataTable } from '../data-table.js';
import type { ReplicaSummary } from './session-summary.js';

const COLUMNS: readonly Column<ReplicaSummary>[] = [
  {
    header: 'Replica',
    rowHeader: true,
    cell: (replica) => (
      <>
        <AppText text={replica.id} />
        {replica.self ? ' (this replica)' : ''}
      </>
    ),
  },
  { header: 'URL', cell: (replica) => <AppText text={replica.url} /> },
  {
    header: 'Status',
    cell: (replica) => <span class={`status status-${replica.status.toLowerCase()}`}>{replica.status}</span>,
  },
  { header: 'Sessions', class: 'number', cell: (replica) => replica.sessions },
  {
    header: 'Last seen',
    class: 'time',
    cell: (replica) => (
      <time dateTime={replica.lastSeen}>{new Date(replica.lastSeen).toLocaleTimeString()}</time>
    ),
  },
];

/** Every replica of the cluster with its lease's health, as the sessions page last read it. */
export function ReplicasPanel(props: { replicas: readonly ReplicaSummary[] }) {
  return (
    <section aria-labelledby="replicas-heading" class="panel">
      <h2 id="replicas-heading">Replicas</h2>
      <DataTable
        label="Replica table"
        caption="Replicas of the cluster and their leases, updated every few seconds"
        captionClass="visually-hidden"
        columns={COLUMNS}
        rows={props.replicas}
        rowKey={(replica) => replica.id}
      />
    </section>
  );
}
