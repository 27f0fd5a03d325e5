import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream';
import type { ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { artifactAccess, mayOpenArtifact, scrubbedRunLog } from '../domain/sessions/artifact-access.js';
import { ERROR_CODES, type ErrorCode } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { ARTIFACTS_HTTP_PREFIX } from '../schema/artifacts.js';
import { type Authenticate, unauthenticatedBody } from './auth.js';

/** Who reads what in clear, asked at each request: the policy in force may change while serving. */
export interface ArtifactReaders {
  readsClear(client: ClientIdentity): boolean;
  /** A run-log message as a reader who does not read in clear sees it: scrubbed by the policy's patterns. */
  redact(text: string): string;
}

/** Only what sessions write is given a type a browser renders; anything else downloads as bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.jsonl': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};
/**
 * Session folders only (`s1`, `s2`, …, and a cluster replica's `<replica>-s1`): never the audit log or
 * anything else kept beside them.
 */
const SESSION_FOLDER = /^(?:[a-z0-9][a-z0-9_-]{0,31}-)?s\d+$/;

/**
 * Serves `GET /artifacts/<session>/<path>` read-only from the artifact root, to clients the GraphQL
 * endpoint would accept. The raw request path is checked segment by segment (no `..`, `.`, empty or
 * encoded separators), and no component under the root may be a symbolic link — the session folder
 * included, which an app running as the same user could make a link to anywhere before its session
 * existed (taking a link's real path as the boundary served the link's target). A live session's files
 * are served once `settled` says they hold what was written so far (the run log writes its lines in
 * batches). What a file may be read by is domain/sessions/artifact-access.ts's: files kept in clear are refused to
 * whoever `readers` says does not read in clear (ARTIFACT_FORBIDDEN), and the run log is scrubbed for them.
 * Answers true when the request was one of its own.
 */
export function artifactsRoute(
  root: string,
  authenticate: Authenticate,
  settled: (sessionId: string) => Promise<void>,
  readers: ArtifactReaders,
) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (!isArtifactsPath(request.url)) return false;
    const raw = (request.url ?? '/').split('?')[0] ?? '/';
    const rest = raw.slice(ARTIFACTS_HTTP_PREFIX.length + 1);
    void serve({ root, authenticate, settled, readers }, rest, request, response).catch(() =>
      end(response, 500, 'The artifact could not be read.'),
    );
    return true;
  };
}

export function isArtifactsPath(url: string | undefined): boolean {
  const raw = (url ?? '/').split('?')[0] ?? '/';
  return raw === ARTIFACTS_HTTP_PREFIX || raw.startsWith(`${ARTIFACTS_HTTP_PREFIX}/`);
}

interface RouteSetup {
  readonly root: string;
  readonly authenticate: Authenticate;
  readonly settled: (sessionId: string) => Promise<void>;
  readonly readers: ArtifactReaders;
}

async function serve(
  { root, authenticate, settled, readers }: RouteSetup,
  rest: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return end(response, 405, 'Artifacts are read-only.');
  }
  let client: ClientIdentity;
  try {
    client = authenticate(request.headers.authorization, request.socket.remoteAddress);
  } catch (error) {
    if (!(error instanceof StagegraphError)) throw error;
    response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    response.end(unauthenticatedBody(error.message));
    return;
  }
  const segments = decode(rest.split('/'));
  if (!segments || segments.length < 2 || !SESSION_FOLDER.test(segments[0] as string)) {
    return end(response, 400, 'Ask for /artifacts/<session id>/<path> as Session.artifacts lists it.');
  }
  const sessionId = segments[0] as string;
  const access = artifactAccess(segments.slice(1));
  const inClear = readers.readsClear(client);
  // Refused before the file is looked for: whether a clear file exists is not the reader's to learn.
  if (!mayOpenArtifact(access, inClear))
    return refuse(
      response,
      'ARTIFACT_FORBIDDEN',
      `/artifacts/${rest} is kept in clear; ${client.id} (${client.role}) may not read it.`,
    );
  await settled(sessionId);
  const found = await openWithoutLinks(root, segments);
  if (found === 'link')
    return refuse(
      response,
      'ARTIFACT_SYMLINK',
      `/artifacts/${rest} goes through a symbolic link under the artifacts folder; links are never followed.`,
    );
  if (!found) return end(response, 404, 'No such artifact.');
  const { handle, size, path } = found;
  const scrubbed = access === 'scrubbed' && !inClear;
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    // Scrubbing changes the length: that answer is sent chunked.
    ...(scrubbed ? {} : { 'content-length': size }),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'",
  });
  if (request.method === 'HEAD') {
    await handle.close();
    response.end();
    return;
  }
  // pipeline: a client gone mid-file ends the read and closes the file.
  if (scrubbed)
    pipeline(handle.createReadStream(), scrubbedRunLog(readers.redact), response, () => undefined);
  else pipeline(handle.createReadStream(), response, () => undefined);
}

/**
 * The regular file at `root/segments`, opened, when no component under the root is a symbolic link;
 * 'link' when one is; null when there is no such file. Each component is looked at without following it,
 * the file is opened without following a link, and what was opened must be the file looked at: a link
 * swapped in between is not served. (The root itself may be a link: it is the server's configuration.)
 */
async function openWithoutLinks(
  root: string,
  segments: readonly string[],
): Promise<{ handle: FileHandle; size: number; path: string } | 'link' | null> {
  let path = await realpath(root).catch(() => null);
  if (path === null) return null;
  let last: Stats | null = null;
  for (const segment of segments) {
    path = join(path, segment);
    if (last?.isFile()) return null;
    last = await lstat(path).catch(() => null);
    if (!last) return null;
    if (last.isSymbolicLink()) return 'link';
  }
  if (!last?.isFile()) return null;
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'ELOOP' ? ('link' as const) : null,
  );
  if (handle === null || handle === 'link') return handle;
  const opened = await handle.stat().catch(() => null);
  if (opened?.isFile() && opened.dev === last.dev && opened.ino === last.ino)
    return { handle, size: opened.size, path };
  await handle.close();
  return opened ? 'link' : null;
}

/**
 * 403 with a registered code: a link under the artifacts folder was not made by the gateway
 * (ARTIFACT_SYMLINK), or the file is kept in clear and the client does not read in clear (ARTIFACT_FORBIDDEN).
 */
function refuse(response: ServerResponse, code: ErrorCode, message: string): void {
  response.writeHead(403, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      errors: [
        {
          message,
          extensions: {
            code,
            hint: ERROR_CODES[code].hint,
            retryable: ERROR_CODES[code].retryable,
            nextActions: [],
          },
        },
      ],
    }),
  );
}

/** The path's segments decoded, or null when one is empty, `.`, `..` or hides a separator or NUL. */
function decode(parts: readonly string[]): string[] | null {
  const segments: string[] = [];
  for (const part of parts) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

function end(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(message);
}
