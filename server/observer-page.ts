import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The observer page (web/observer/), bundled with esbuild on the first request and kept for the process.
 * Server code builds the browser code by path and never imports it: web/ is no server layer.
 */
export const OBSERVER_ENTRY = fileURLToPath(new URL('../web/observer/main.tsx', import.meta.url));
const WEB_TSCONFIG = fileURLToPath(new URL('../web/tsconfig.json', import.meta.url));

export const OBSERVER_SCRIPT_PATH = '/observer/app.js';
export const OBSERVER_STYLE_PATH = '/observer/app.css';

/**
 * Nothing but the gateway itself: no inline script or style, no other origin. `img-src` also allows the
 * data: and blob: URLs live frames and artifacts are shown from.
 */
export const OBSERVER_CSP =
  "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stagegraph observer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${OBSERVER_STYLE_PATH}">
</head>
<body>
<div id="app"></div>
<noscript>The observer page needs JavaScript.</noscript>
<script type="module" src="${OBSERVER_SCRIPT_PATH}"></script>
</body>
</html>
`;

interface Asset {
  readonly type: string;
  readonly etag: string;
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
}

export interface ObserverBundle {
  readonly html: Asset;
  readonly script: Asset;
  readonly style: Asset;
}

/** One build per entry for the whole process, shared by every gateway; a failed build is tried again. */
const builds = new Map<string, Promise<ObserverBundle>>();

export function observerBundle(entry = OBSERVER_ENTRY): Promise<ObserverBundle> {
  let pending = builds.get(entry);
  if (!pending) {
    pending = buildBundle(entry);
    builds.set(entry, pending);
    pending.catch(() => builds.delete(entry));
  }
  return pending;
}

async function buildBundle(entry: string): Promise<ObserverBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    tsconfig: WEB_TSCONFIG,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    charset: 'utf8',
    outdir: 'observer',
    entryNames: 'app',
    logLevel: 'silent',
  });
  const output = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension));
  const script = output('.js');
  if (!script) throw new Error('esbuild produced no script.');
  return {
    html: asset('text/html; charset=utf-8', Buffer.from(SHELL)),
    script: asset('text/javascript; charset=utf-8', Buffer.from(script.contents)),
    style: asset('text/css; charset=utf-8', Buffer.from(output('.css')?.contents ?? new Uint8Array())),
  };
}

function asset(type: string, identity: Buffer): Asset {
  return {
    type,
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

const PATHS: Readonly<Record<string, keyof ObserverBundle>> = {
  '/': 'html',
  '/index.html': 'html',
  [OBSERVER_SCRIPT_PATH]: 'script',
  [OBSERVER_STYLE_PATH]: 'style',
};

const SECURITY_HEADERS = {
  'content-security-policy': OBSERVER_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Serves the page and its two assets before yoga; answers true when the request was one of them. A
 * build that fails answers 500 with the reason on these paths only: GraphQL keeps being served.
 */
export function observerPage(options: { entry?: string; log?: (message: string) => void } = {}) {
  const { entry = OBSERVER_ENTRY, log = () => {} } = options;
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    const which = PATHS[pathname];
    if (which === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    observerBundle(entry).then(
      (bundle) => send(request, response, bundle[which]),
      (error: unknown) => {
        log(`observer page build failed: ${String(error)}`);
        if (response.headersSent) return;
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
        response.end(
          `The observer page could not be built: ${firstLine(error)}\nGraphQL is still served at /graphql.\n`,
        );
      },
    );
    return true;
  };
}

function send(request: IncomingMessage, response: ServerResponse, asset: Asset): void {
  const headers = {
    'content-type': asset.type,
    etag: asset.etag,
    // Revalidated on every load (a 304 when unchanged), so a restarted gateway's new build is never missed.
    'cache-control': 'no-cache',
    vary: 'accept-encoding',
    ...SECURITY_HEADERS,
  };
  if (request.headers['if-none-match'] === asset.etag) {
    response.writeHead(304, headers);
    response.end();
    return;
  }
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const body = encoding ? asset[encoding] : asset.identity;
  response.writeHead(200, {
    ...headers,
    'content-length': body.length,
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function firstLine(error: unknown): string {
  // An esbuild failure lists its errors; its message starts with a count only.
  const first = (error as { errors?: { text?: string }[] } | null)?.errors?.[0]?.text;
  if (first) return first;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
}
