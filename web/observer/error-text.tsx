import { AppText } from './app-text.js';
import type { GatewayError } from './gateway-client.js';

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

/**
 * A panel's current failure, announced as it appears (role="alert"); nothing when there is none. A string
 * is a failure already described (describeError), shown as text from outside the page.
 */
export function ErrorAlert(props: { error: GatewayError | string | null | undefined }) {
  const { error } = props;
  if (!error) return null;
  return (
    <p role="alert" class="error">
      {typeof error === 'string' ? <AppText text={error} /> : <ErrorText error={error} />}
    </p>
  );
}
