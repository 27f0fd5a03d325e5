import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { ARTIFACTS_HTTP_PREFIX } from '../schema/artifacts.js';
import { type Authenticate, unauthenticatedBody } from './auth.js';

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
/** Session folders only (`s1`, `s2`, …): never the audit log or anything else kept beside them. */
const SESSION_FOLDER = /^s\d+$/;

/**
 * Serves `GET /artifacts/<session>/<path>` read-only from the artifact root, to clients the GraphQL
 * endpoint would accept. The raw request path is checked segment by segment (no `..`, `.`, empty or
 * encoded separators), and the file's real path must stay inside its session's folder, so neither
 * traversal nor a symlink reaches beyond it. A live session's files are served once `settled` says they
 * hold what was written so far (the run log writes its lines in batches). Answers true when the request
 * was one of its own.
 */
export function artifactsRoute(
  root: string,
  authenticate: Authenticate,
  settled: (sessionId: string) => Promise<void>,
) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (!isArtifactsPath(request.url)) return false;
    const raw = (request.url ?? '/').split('?')[0] ?? '/';
    const rest = raw.slice(ARTIFACTS_HTTP_PREFIX.length + 1);
    void serve(root, authenticate, settled, rest, request, response).catch(() =>
      end(response, 500, 'The artifact could not be read.'),
    );
    return true;
  };
}

export function isArtifactsPath(url: string | undefined): boolean {
  const raw = (url ?? '/').split('?')[0] ?? '/';
  return raw === ARTIFACTS_HTTP_PREFIX || raw.startsWith(`${ARTIFACTS_HTTP_PREFIX}/`);
}

async function serve(
  root: string,
  authenticate: Authenticate,
  settled: (sessionId: string) => Promise<void>,
  rest: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return end(response, 405, 'Artifacts are read-only.');
  }
  try {
    authenticate(request.headers.authorization, request.socket.remoteAddress);
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
  await settled(sessionId);
  const folder = join(root, sessionId);
  const file = await realpath(join(folder, ...segments.slice(1))).catch(() => null);
  const inside = await realpath(folder).catch(() => null);
  if (!file || !inside) return end(response, 404, 'No such artifact.');
  if (!file.startsWith(`${inside}${sep}`))
    return end(response, 403, 'That path leads outside the session folder.');
  const info = await stat(file);
  if (!info.isFile()) return end(response, 404, 'No such artifact.');
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'",
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
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
