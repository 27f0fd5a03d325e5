import { useCallback, useEffect, useState } from 'preact/hooks';
import { DataTable } from '../data-table.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';
import { type ArtifactFile, ArtifactViewer, formatBytes } from './artifact-viewer.js';
import './artifacts.css';
import { AppText } from '../app-text.js';
import { ErrorAlert } from '../error-text.js';

const ARTIFACTS_QUERY = `query ObserverArtifacts($id: ID) {
  session(id: $id) { id artifacts { omitted files { path size modified url } } }
}`;

interface Listing {
  files: ArtifactFile[];
  omitted: number;
}

/** A session's artifact folder: its files, and the chosen one shown below the list. */
export function ArtifactsPanel(props: { client: GatewayClient; sessionId: string }) {
  const { client, sessionId } = props;
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<GatewayError | null>(null);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);

  const refresh = useCallback(() => {
    setLoading(true);
    client
      .query<{ session: { artifacts: Listing } | null }>(ARTIFACTS_QUERY, { id: sessionId })
      .then(
        (data) => {
          setListing(data.session?.artifacts ?? { files: [], omitted: 0 });
          setError(null);
        },
        (failure: GatewayError) => setError(failure),
      )
      .finally(() => setLoading(false));
  }, [client, sessionId]);

  useEffect(() => {
    setListing(null);
    setChosen(null);
    refresh();
  }, [refresh]);

  const file = listing?.files.find((candidate) => candidate.path === chosen) ?? null;
  const headingId = `artifacts-${sessionId}-heading`;
  return (
    <section class="artifacts-panel" aria-labelledby={headingId}>
      <header class="panel-header">
        <h2 id={headingId}>Artifacts</h2>
        <button type="button" onClick={refresh} disabled={loading}>
          Refresh files
        </button>
      </header>
      <p class="visually-hidden" role="status">
        {loading ? 'Loading the artifact list…' : ''}
      </p>
      <ErrorAlert error={error} />
      {listing && listing.files.length === 0 ? <p class="empty">This session has no artifact yet.</p> : null}
      {listing && listing.files.length > 0 ? (
        <DataTable
          label={`Files of session ${sessionId}`}
          caption={
            <>
              Files of session <AppText text={sessionId} />
            </>
          }
          columns={[
            {
              header: 'File',
              rowHeader: true,
              cell: (candidate) => (
                <button
                  type="button"
                  class="link-button"
                  aria-pressed={candidate.path === chosen}
                  onClick={() => setChosen(candidate.path)}
                >
                  <AppText text={candidate.path} />
                </button>
              ),
            },
            { header: 'Size', class: 'number', cell: (candidate) => formatBytes(candidate.size) },
            {
              header: 'Modified',
              cell: (candidate) => (
                <time dateTime={candidate.modified}>{new Date(candidate.modified).toLocaleString()}</time>
              ),
            },
          ]}
          rows={listing.files}
          rowKey={(candidate) => candidate.path}
          rowClass={(candidate) => (candidate.path === chosen ? 'chosen' : undefined)}
        />
      ) : null}
      {listing && listing.omitted > 0 ? (
        <p class="notice">{listing.omitted} more files are not listed.</p>
      ) : null}
      {file ? <ArtifactViewer client={client} file={file} /> : null}
    </section>
  );
}
