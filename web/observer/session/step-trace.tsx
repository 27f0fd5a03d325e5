import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { useApprovalScreenshot } from '../approval-evidence.js';
import { type Column, DataTable } from '../data-table.js';
import { ErrorAlert } from '../error-text.js';
import { FoundBy, type TargetConfidence } from '../found-by.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';
import { describeError, useSubscription } from '../gateway-hooks.js';
import { timeOfDay } from './tail.js';

const RECORD_FIELDS = `seq time operation decision outcome errorCode durationMs risk arguments
  target { kind role name windowId confidence }
  approval { decidedBy status scope requestId }
  evidence { kind sha256 }
  effect { added removed changed documentReplaced }`;
const TRACE = `query ObserverTrace($filter: AuditFilter, $after: String) {
  audit(filter: $filter, after: $after, first: 100) {
    edges { node { ${RECORD_FIELDS} } } pageInfo { endCursor hasNextPage } } }`;
const TRACE_LIVE = `subscription ObserverTraceLive($filter: AuditFilter) {
  audit(filter: $filter) { droppedBefore record { ${RECORD_FIELDS} } } }`;

/** The trace keeps the newest steps only. */
const TRACE_LIMIT = 500;

interface TracePage {
  audit: {
    edges: { node: AuditRecord }[];
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
  };
}

interface AuditRecord {
  seq: number;
  time: string;
  operation: string;
  decision: string;
  outcome: string;
  errorCode: string | null;
  durationMs: number;
  risk: string;
  arguments: string;
  target: {
    kind: string;
    role: string;
    name: string;
    windowId: string | null;
    confidence: TargetConfidence | null;
  } | null;
  approval: { decidedBy: string; status: string; scope: string | null; requestId: string | null } | null;
  evidence: { kind: string; sha256: string }[];
  effect: { added: number; removed: number; changed: number; documentReplaced: boolean } | null;
}

/**
 * The session's audited steps in order: the trail so far, then records as they are written. The live
 * stream is opened first and the two are merged by `seq`, so nothing written in between is missed.
 */
export function StepTrace(props: { client: GatewayClient; sessionId: string }) {
  const { client, sessionId } = props;
  const [records, setRecords] = useState<ReadonlyMap<number, AuditRecord>>(new Map());
  const [dropped, setDropped] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const filter = { sessionId };

  const merge = (added: AuditRecord[]) =>
    setRecords((current) => {
      const next = new Map(current);
      for (const record of added) next.set(record.seq, record);
      if (next.size <= TRACE_LIMIT) return next;
      const keep = [...next.keys()].sort((a, b) => a - b).slice(-TRACE_LIMIT);
      return new Map(keep.map((seq) => [seq, next.get(seq) as AuditRecord]));
    });

  useSubscription<{ audit: { droppedBefore: number; record: AuditRecord } }>(
    client,
    TRACE_LIVE,
    { filter },
    ({ audit }) => {
      merge([audit.record]);
      if (audit.droppedBefore > 0) setDropped((count) => count + audit.droppedBefore);
    },
    (error) => setProblem(describeError(error)),
  );

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let after: string | null = null;
      try {
        while (!cancelled) {
          const page: TracePage = await client.query<TracePage>(TRACE, { filter: { sessionId }, after });
          if (cancelled) return;
          merge(page.audit.edges.map((edge) => edge.node));
          if (!page.audit.pageInfo.hasNextPage || !page.audit.pageInfo.endCursor) return;
          after = page.audit.pageInfo.endCursor;
        }
      } catch (error) {
        if (!cancelled) setProblem(describeError(error as GatewayError));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [client, sessionId]);

  const ordered = [...records.values()].sort((a, b) => a.seq - b.seq);
  const columns = useMemo(() => traceColumns(client, sessionId), [client, sessionId]);
  return (
    <section aria-labelledby="trace-heading" class="panel trace">
      <h3 id="trace-heading">Step trace</h3>
      <p class="tail-counts" aria-live="polite">
        {ordered.length} steps{dropped > 0 ? `; ${dropped} dropped by the gateway (read too slowly)` : ''}
      </p>
      <ErrorAlert error={problem} />
      <DataTable
        label="Steps, oldest first"
        columns={columns}
        rows={ordered}
        rowKey={(record) => record.seq}
        rowClass={(record) => `outcome-${record.outcome.toLowerCase()}`}
      />
    </section>
  );
}

function traceColumns(client: GatewayClient, sessionId: string): Column<AuditRecord>[] {
  return [
    { header: '#', cell: (record) => record.seq },
    { header: 'Time', class: 'time', cell: (record) => timeOfDay(record.time) },
    { header: 'Operation', cell: (record) => <AppText text={record.operation} /> },
    { header: 'Target', cell: (record) => <TargetCell record={record} /> },
    {
      header: 'Decision',
      cell: (record) => <DecisionCell client={client} sessionId={sessionId} record={record} />,
    },
    {
      header: 'Outcome',
      cell: (record) => `${record.outcome}${record.errorCode ? ` (${record.errorCode})` : ''}`,
    },
    { header: 'Elapsed', cell: (record) => formatMs(record.durationMs) },
    { header: 'Diff', cell: (record) => <EffectCell effect={record.effect} /> },
  ];
}

function TargetCell(props: { record: AuditRecord }) {
  const { target } = props.record;
  const ref = refOf(props.record.arguments);
  const refShown = ref ? (
    <span class="ref">
      {' '}
      ref <AppText text={ref} />
    </span>
  ) : null;
  if (!target) return refShown ?? <>-</>;
  return (
    <>
      <span class="role">
        <AppText text={target.role} />
      </span>{' '}
      “<AppText text={target.name} />”{refShown}
      {target.confidence ? (
        <>
          {' '}
          <FoundBy confidence={target.confidence} />
        </>
      ) : null}
    </>
  );
}

function DecisionCell(props: { client: GatewayClient; sessionId: string; record: AuditRecord }) {
  const { record } = props;
  const { approval } = record;
  const seen = useApprovalScreenshot(approval?.requestId);
  const shown = record.evidence.find((evidence) => evidence.kind === 'element-screenshot');
  const kept = useKeptEvidence(props.client, props.sessionId, seen ? undefined : shown?.sha256);
  const screenshot = seen ?? kept;
  return (
    <>
      {record.decision}
      {approval ? (
        <>
          {` → ${approval.status} by `}
          <AppText text={approval.decidedBy} />
          {approval.scope ? ` (${approval.scope})` : ''}
        </>
      ) : null}
      {screenshot ? (
        <img
          class="approval-shot"
          src={screenshot}
          alt={`The element the approver was shown for step ${record.seq}`}
        />
      ) : shown ? (
        <span class="evidence">
          {' '}
          (the approver was shown an element screenshot, sha256 {shown.sha256.slice(0, 12)}…)
        </span>
      ) : null}
    </>
  );
}

/**
 * The screenshot an approver was shown, as the gateway keeps it in the session's artifacts
 * (`evidence/<sha256>.png`), for steps decided before this page watched; undefined when not kept.
 */
function useKeptEvidence(
  client: GatewayClient,
  sessionId: string,
  sha256: string | undefined,
): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (!sha256) return;
    let objectUrl: string | undefined;
    let cancelled = false;
    client.fetchArtifact(`/artifacts/${encodeURIComponent(sessionId)}/evidence/${sha256}.png`).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      // Not kept (an older gateway, another format): the hash is shown instead.
      () => undefined,
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [client, sessionId, sha256]);
  return url;
}

function EffectCell(props: { effect: AuditRecord['effect'] }) {
  const { effect } = props;
  if (!effect) return <>-</>;
  if (effect.documentReplaced) return <>document replaced</>;
  const parts = [
    effect.added ? `+${effect.added}` : '',
    effect.removed ? `−${effect.removed}` : '',
    effect.changed ? `~${effect.changed}` : '',
  ].filter(Boolean);
  return <>{parts.length > 0 ? parts.join(' ') : 'no change'}</>;
}

/** The ref a target named, read from the recorded arguments (the audit keeps locators in clear). */
function refOf(argumentsJson: string): string | null {
  try {
    const parsed = JSON.parse(argumentsJson) as { target?: { ref?: unknown } };
    return typeof parsed.target?.ref === 'string' ? parsed.target.ref : null;
  } catch {
    return null;
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
