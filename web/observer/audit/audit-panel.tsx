import type { GatewayClient, Viewer } from '../gateway-client.js';

export function AuditPanel(props: { client: GatewayClient; viewer: Viewer }) {
  return (
    <section aria-labelledby="audit-heading" data-viewer-role={props.viewer.role}>
      <h2 id="audit-heading">Audit trail</h2>
    </section>
  );
}
