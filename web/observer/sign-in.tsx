import { useState } from 'preact/hooks';
import { ErrorAlert } from './error-text.js';

/** How the page signed in: a token, or none (a loopback gateway started without tokens). */
export interface Credentials {
  token: string | null;
}

/** The sign-in form; `problem` says why the previous attempt failed. */
export function SignIn(props: { onSignIn(credentials: Credentials): void; problem?: string | undefined }) {
  const [token, setToken] = useState('');
  return (
    <main class="sign-in">
      <h1>Stagegraph observer</h1>
      <form
        aria-labelledby="sign-in-heading"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = token.trim();
          if (trimmed !== '') props.onSignIn({ token: trimmed });
        }}
      >
        <h2 id="sign-in-heading">Sign in</h2>
        <p>
          Paste an agent, approver or observer token. This page keeps it in memory only and sends it to the
          gateway when connecting: reloading the page signs you out.
        </p>
        <label for="token">Token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <div class="actions">
          <button type="submit" disabled={token.trim() === ''}>
            Sign in with token
          </button>
          <button type="button" onClick={() => props.onSignIn({ token: null })}>
            Sign in without a token
          </button>
        </div>
        <p class="note">
          Without a token: only a gateway on this machine's loopback, started without an agent token, accepts
          it.
        </p>
        <ErrorAlert error={props.problem} />
      </form>
    </main>
  );
}
