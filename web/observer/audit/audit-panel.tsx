import { useState } from 'preact/hooks';
import type { GatewayClient, Viewer } from '../gateway-client.js';
import { AuditFilterForm } from './audit-filter-form.js';
import { useAuditPages } from './audit-pages.js';
import { AuditTable } from './audit-table.js';
import type { AuditFilter } from './audit-trail.js';
import { VerifyChain } from './verify-chain.js';
import './audit.css';
import { ErrorAlert } from '../error-text.js';

/**
 * The audit trail: a filterable page of records (the latest page first, new records streaming in), paged
 * with Oldest / Older / Newer / Latest, and a Verify chain button.
 */
export function AuditPanel(props: { client: GatewayClient; viewer: Viewer }) {
  const [filter, setFilter] = useState<AuditFilter>({});
  const view = useAuditPages(props.client, filter);
  const filtered = Object.keys(filter).length > 0;
  return (
    <section class="audit-panel" aria-labelledby="audit-heading">
      <header class="panel-header">
        <h2 id="audit-heading">Audit trail</h2>
        <VerifyChain client={props.client} />
      </header>
      <AuditFilterForm onApply={setFilter} />
      <nav class="audit-paging" aria-label="Audit pages">
        <button type="button" disabled={!view.hasOlder || view.loading} onClick={view.oldest}>
          Oldest
        </button>
        <button type="button" disabled={!view.hasOlder || view.loading} onClick={view.older}>
          Older
        </button>
        <span class="audit-page-number">
          Page {view.page} of {view.pages}
          {view.hasNewer ? '+' : ''}
        </span>
        <button type="button" disabled={!view.hasNewer || view.loading} onClick={view.newer}>
          Newer
        </button>
        <button type="button" disabled={view.loading} onClick={view.latest}>
          Latest
        </button>
      </nav>
      <p class="audit-state" role="status">
        {view.loading ? 'Loading audit records…' : ''}
        {!view.loading && view.arrivedSince > 0
          ? `${view.arrivedSince} newer record${view.arrivedSince === 1 ? '' : 's'} arrived; Latest shows ${view.arrivedSince === 1 ? 'it' : 'them'}.`
          : ''}
      </p>
      <ErrorAlert error={view.error} />
      {view.dropped > 0 ? (
        <p class="notice">
          {view.dropped} record{view.dropped === 1 ? '' : 's'} did not stream in to this page: it read too
          slowly, or, in a cluster, the cluster's audit stream trimmed them or a replica could not write them
          there while Redis was out. The audit trail still holds them (in a cluster, each in its replica's
          trail: <code>audit(replica:)</code>).
        </p>
      ) : null}
      {view.trimmedBefore > 0 ? (
        <p class="notice">
          {view.trimmedBefore} older record{view.trimmedBefore === 1 ? ' was' : 's were'} trimmed from the
          cluster's audit stream before this page; each replica's own trail still holds them: read it with{' '}
          <code>audit(replica:)</code>.
        </p>
      ) : null}
      {!view.loading && view.rows.length === 0 ? (
        <p class="empty">{filtered ? 'No audit record matches this filter.' : 'No audit record yet.'}</p>
      ) : (
        <AuditTable
          rows={view.rows}
          caption={`Audit records${filtered ? ' matching the filter' : ''}, page ${view.page}, oldest first`}
        />
      )}
    </section>
  );
}
