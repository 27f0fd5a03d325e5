import { lookup } from 'node:dns/promises';
import { request } from 'node:http';

/**
 * A DevTools HTTP answer larger than this is refused unread: /json/list of a browser with a thousand
 * targets is about 500 KB, and a port that sends more is not a DevTools endpoint worth reading.
 */
export const DEVTOOLS_JSON_MAX_BYTES = 1024 * 1024;

/** Why a DevTools HTTP read failed; `code` is the socket's (ECONNREFUSED, ...) where it has one. */
export class DevtoolsHttpError extends Error {
  readonly code: string | undefined;
  readonly timedOut: boolean;

  constructor(message: string, options: { code?: string; timedOut?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DevtoolsHttpError';
    this.code = options.code;
    this.timedOut = options.timedOut ?? false;
  }
}

/**
 * GETs a DevTools HTTP endpoint (`/json/version`, `/json/list`) and parses its JSON, all within `timeoutMs`
 * and DEVTOOLS_JSON_MAX_BYTES, rejecting with a DevtoolsHttpError and nothing else. chrome-remote-interface's
 * helpers (CDP.Version, CDP.List) parse the body inside the response's 'end' callback, so a port that
 * answers 200 with a page that is not JSON — an app's own HTTP server, a hostile one — threw there,
 * uncaught, and ended the gateway; and they read a body of any length. The host is resolved first, as
 * chrome-remote-interface does: Chromium refuses a Host header that names a host rather than an address.
 * No connection is pooled: the next read of the port may find another process there.
 */
export async function getDevtoolsJson(
  host: string,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<unknown> {
  const signal = AbortSignal.timeout(Math.max(1, timeoutMs));
  let address: string;
  try {
    address = (await lookup(host)).address;
  } catch (error) {
    throw new DevtoolsHttpError(`cannot resolve ${host}`, { code: codeOf(error), cause: error });
  }
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(
        signal.aborted
          ? new DevtoolsHttpError(`no answer within ${timeoutMs} ms`, { timedOut: true })
          : error instanceof DevtoolsHttpError
            ? error
            : new DevtoolsHttpError(messageOf(error), { code: codeOf(error), cause: error }),
      );
    const asking = request({ host: address, port, path, method: 'GET', signal, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > DEVTOOLS_JSON_MAX_BYTES) {
          asking.destroy(new DevtoolsHttpError(`it answered more than ${DEVTOOLS_JSON_MAX_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) {
          fail(new DevtoolsHttpError(`it answered HTTP ${response.statusCode} to ${path}`));
          return;
        }
        try {
          resolve(JSON.parse(body));
        } catch {
          fail(new DevtoolsHttpError(`it answered ${path} with something that is not JSON`));
        }
      });
    });
    asking.on('error', fail);
    asking.end();
  });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  if (codeOf(error) === 'ECONNREFUSED') return 'connection refused';
  return error instanceof Error ? error.message : String(error);
}
