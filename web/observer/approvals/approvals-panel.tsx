import type { GatewayClient, Viewer } from '../gateway-client.js';

export function ApprovalsPanel(props: { client: GatewayClient; viewer: Viewer }) {
  return (
    <section aria-labelledby="approvals-heading" data-viewer-role={props.viewer.role}>
      <h2 id="approvals-heading">Approvals</h2>
    </section>
  );
}
