import { type Client, createClient } from 'graphql-ws';

/** What a failed operation tells the page: the registry's code and hint when the gateway gave them. */
export interface GatewayError {
  message: string;
  code?: string;
  hint?: string;
}

export interface GatewayClient {
  /** Rejects with a GatewayError. */
  query<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
  mutate<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
  /** Returns the unsubscribe function. */
  subscribe<T>(
    document: string,
    variables: Record<string, unknown>,
    sink: { next(data: T): void; error?(error: GatewayError): void; complete?(): void },
  ): () => void;
  /**
   * GETs a same-origin artifact path (an ArtifactFile's `url`, `/artifacts/...`) with the token in the
   * `Authorization` header: a token never goes into a URL.
   */
  fetchArtifact(path: string): Promise<Blob>;
  close(): void;
}

export interface Viewer {
  id: string;
  role: 'AGENT' | 'APPROVER' | 'OBSERVER' | 'ANONYMOUS_LOOPBACK';
  mayAct: boolean;
  mayApprove: boolean;
}

/** The socket's state, shown in the page's header. `refused` means the token was not accepted. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'refused' | 'closed';

export interface ObservedGatewayClient extends GatewayClient {
  readonly state: ConnectionState;
  /** Calls `listener` on every state change; returns the function that stops listening. */
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}

/** The gateway's close code for a connection_init whose token it refused (server/graphql-ws.ts). */
const CLOSE_FORBIDDEN = 4403;
const RETRY_CAP_MS = 10_000;

export interface GatewayClientOptions {
  /** Null signs in without a token: only a loopback gateway started without tokens accepts that. */
  token: string | null;
  /** Defaults to the page's own origin: `ws(s)://<host>/graphql`. */
  url?: string;
}

/** One graphql-ws client per sign-in; queries, mutations and subscriptions share its socket. */
export function createGatewayClient(options: GatewayClientOptions): ObservedGatewayClient {
  const { token } = options;
  const url = options.url ?? sameOriginSocketUrl();
  const listeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let closed = false;
  const setState = (next: ConnectionState) => {
    if (closed && next !== 'closed') return;
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener(next);
  };
  const ws: Client = createClient({
    url,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: Number.POSITIVE_INFINITY,
    // A refused token stays refused: retrying would only repeat the refusal.
    shouldRetry: (event) => !(isCloseEvent(event) && event.code === CLOSE_FORBIDDEN),
    retryWait: (retries) =>
      new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_CAP_MS, 500 * 2 ** retries))),
    onNonLazyError: () => undefined,
    on: {
      connecting: (isRetry) => setState(isRetry ? 'reconnecting' : 'connecting'),
      connected: () => setState('connected'),
      closed: (event) => {
        if (isCloseEvent(event) && event.code === CLOSE_FORBIDDEN) setState('refused');
        else setState(closed ? 'closed' : 'reconnecting');
      },
    },
  });

  const once = <T>(document: string, variables: Record<string, unknown> | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let settled = false;
      const unsubscribe = ws.subscribe<T>(
        { query: document, ...(variables ? { variables } : {}) },
        {
          next: (result) => {
            if (settled) return;
            settled = true;
            if (result.errors?.length) reject(toGatewayError(result.errors));
            else resolve(result.data as T);
            unsubscribe();
          },
          error: (error) => {
            if (settled) return;
            settled = true;
            reject(toGatewayError(error));
          },
          complete: () => {
            if (settled) return;
            settled = true;
            reject({ message: 'The gateway answered nothing.' } satisfies GatewayError);
          },
        },
      );
    });

  return {
    get state() {
      return state;
    },
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    query: once,
    mutate: once,
    subscribe<T>(
      document: string,
      variables: Record<string, unknown>,
      sink: { next(data: T): void; error?(error: GatewayError): void; complete?(): void },
    ) {
      return ws.subscribe<T>(
        { query: document, variables },
        {
          next: (result) => {
            if (result.errors?.length) sink.error?.(toGatewayError(result.errors));
            else if (result.data) sink.next(result.data as T);
          },
          error: (error) => sink.error?.(toGatewayError(error)),
          complete: () => sink.complete?.(),
        },
      );
    },
    async fetchArtifact(path) {
      if (!path.startsWith('/') || path.startsWith('//'))
        throw { message: `Not a same-origin artifact path: ${path}` } satisfies GatewayError;
      const response = await fetch(path, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        credentials: 'omit',
        cache: 'no-store',
      });
      if (!response.ok) throw await httpError(response);
      return response.blob();
    },
    close() {
      closed = true;
      setState('closed');
      listeners.clear();
      void ws.dispose();
    },
  };
}

export function sameOriginSocketUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/graphql`;
}

function isCloseEvent(value: unknown): value is { code: number; reason: string } {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value;
}

interface FormattedError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** graphql-ws reports GraphQL errors as an array, a closed socket as a CloseEvent, anything else as an Error. */
export function toGatewayError(error: unknown): GatewayError {
  const first: unknown = Array.isArray(error) ? error[0] : error;
  if (isCloseEvent(first)) {
    const [code, ...rest] = first.reason.split(': ');
    return rest.length > 0 && code && /^[A-Z_]+$/.test(code)
      ? { message: rest.join(': '), code }
      : { message: `The connection closed (${first.code}${first.reason ? `: ${first.reason}` : ''}).` };
  }
  if (typeof first === 'object' && first !== null && 'message' in first) {
    const { message, extensions } = first as FormattedError;
    const code = extensions?.code;
    const hint = extensions?.hint;
    return {
      message: String(message),
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof hint === 'string' ? { hint } : {}),
    };
  }
  return { message: String(first ?? 'Unknown error') };
}

async function httpError(response: Response): Promise<GatewayError> {
  try {
    const body = (await response.json()) as { errors?: FormattedError[] };
    if (body.errors?.length) return toGatewayError(body.errors);
  } catch {
    // Not a GraphQL-shaped body: the status says enough.
  }
  return { message: `The gateway answered ${response.status} ${response.statusText}.`.trim() };
}
