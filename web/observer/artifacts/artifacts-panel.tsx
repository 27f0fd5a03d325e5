import type { GatewayClient } from '../gateway-client.js';

export function ArtifactsPanel(props: { client: GatewayClient; sessionId: string }) {
  return (
    <section aria-labelledby="artifacts-heading" data-session={props.sessionId}>
      <h2 id="artifacts-heading">Artifacts</h2>
    </section>
  );
}
