import { useState } from 'preact/hooks';
import { AppText } from './app-text.js';

/** How the page signed in: a token, or none (a loopback gateway started without tokens). */
export interface Credentials {
  token: string | null;
}

/** sessionStorage only: the token lives as long as the tab, never in localStorage or a URL. */
const STORAGE_KEY = 'stagegraph.observer.credentials';

export function storedCredentials(): Credentials | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as { token?: unknown };
    return { token: typeof parsed.token === 'string' && parsed.token !== '' ? parsed.token : null };
  } catch {
    sessionStorage.removeItem(STORAGE_KEY);
    return null;
  }
}

export function storeCredentials(credentials: Credentials): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
}

export function forgetCredentials(): void {
  sessionStorage.removeItem(STORAGE_KEY);
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
          Paste an agent, approver or observer token. It is kept in this tab's session storage only, and sent
          to the gateway when connecting.
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
        {props.problem ? (
          <p role="alert" class="error">
            <AppText text={props.problem} />
          </p>
        ) : null}
      </form>
    </main>
  );
}
