import { AppText } from '../app-text.js';
import type { GatewayError } from '../gateway-client.js';

/** A gateway error as the panels show it: its registry code, the message, and the hint on what to do. */
export function ErrorText(props: { error: GatewayError }) {
  const { code, message, hint } = props.error;
  return (
    <span class="error-text">
      {code ? <code>{code}</code> : null} <AppText text={message} />
      {hint ? (
        <span class="hint">
          {' '}
          <AppText text={hint} />
        </span>
      ) : null}
    </span>
  );
}
