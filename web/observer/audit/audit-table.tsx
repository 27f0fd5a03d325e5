import { AppText } from '../app-text.js';
import type { AuditRecord } from './audit-pages.js';

/** One page of audit records under proper column headers. */
export function AuditTable(props: { rows: AuditRecord[]; caption: string }) {
  return (
    // A wide table scrolls sideways on a narrow screen: the region takes focus so keys can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be keyboard-reachable
    <section class="audit-table-wrap" aria-labelledby="audit-table-caption" tabIndex={0}>
      <table class="audit-table">
        <caption id="audit-table-caption">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">seq</th>
            <th scope="col">time</th>
            <th scope="col">client</th>
            <th scope="col">operation</th>
            <th scope="col">session</th>
            <th scope="col">target</th>
            <th scope="col">decision</th>
            <th scope="col">rule</th>
            <th scope="col">risk</th>
            <th scope="col">outcome</th>
            <th scope="col">errorCode</th>
            <th scope="col">durationMs</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((record) => (
            <tr key={record.seq} class={`outcome-${record.outcome.toLowerCase()}`}>
              <th scope="row">{record.seq}</th>
              <td>
                <time dateTime={record.time} title={record.time}>
                  {new Date(record.time).toLocaleTimeString()}
                </time>
              </td>
              <td>
                <AppText text={record.client.id} />
              </td>
              <td>
                <AppText text={record.operation} />
              </td>
              <td>
                <AppText text={record.session?.id} />
              </td>
              <td>
                {record.target ? (
                  <>
                    <AppText text={record.target.role} /> “<AppText text={record.target.name} />”
                  </>
                ) : null}
              </td>
              <td>
                {record.decision}
                {record.approval ? (
                  <span class="approval-note">
                    {' '}
                    ({record.approval.status.toLowerCase()} by <AppText text={record.approval.decidedBy} />
                    {record.approval.scope ? `, ${record.approval.scope.toLowerCase()}` : ''})
                  </span>
                ) : null}
              </td>
              <td>
                <AppText text={record.rule.id} />
              </td>
              <td>{record.risk}</td>
              <td>{record.outcome}</td>
              <td>{record.errorCode ?? ''}</td>
              <td class="number">{record.durationMs.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
