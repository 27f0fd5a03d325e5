import type { IncomingMessage, ServerResponse } from 'node:http';
import { ASSET_MAX_AGE_SECONDS, type Encoding, GraphiqlAssets, type Served } from './graphiql-assets.js';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default.js';

/**
 * What the page tells yoga's GraphiQL. Subscriptions go over SSE: an SSE request is an ordinary HTTP
 * request and carries the Headers tab's `Authorization`, whereas GraphiQL's graphql-ws client sends no
 * headers in connection_init, so with `--token` a WebSocket subscription from the page could never
 * authenticate.
 */
const OPTIONS = { title: 'Stagegraph', subscriptionsProtocol: 'SSE', defaultQuery: GRAPHIQL_DEFAULT_QUERY };

/**
 * The offline GraphiQL: a page of a few hundred bytes naming yoga's bundle (script, styles, the Monaco
 * editor's three workers, favicon) as separate files under `<path>/assets/<hash>/`, cached by the browser
 * for a year. @graphql-yoga/render-graphiql inlines all of it into one 9 MB page (its workers as JSON
 * strings turned into blobs), which every visit downloaded and parsed again. Nothing is fetched from
 * anywhere but this server.
 */
export function graphiqlPage(path: string) {
  const assets = new GraphiqlAssets();
  const prefix = `${path}/assets/`;
  let html: Buffer | undefined;
  const page = () => {
    html ??= Buffer.from(pageHtml(`${prefix}${assets.version}/`));
    return html;
  };
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    if (pathname.startsWith(prefix)) {
      const [version, name = '', ...rest] = pathname.slice(prefix.length).split('/');
      if (version !== assets.version || rest.length > 0 || !assets.isAsset(name)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('No such GraphiQL asset.');
        return true;
      }
      void assets.serve(name, encodingOf(request)).then((served) => send(request, response, served));
      return true;
    }
    const wantsPage =
      request.method === 'GET' &&
      (pathname === path || pathname === `${path}/`) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) return false;
    const body = page();
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    response.end(body);
    return true;
  };
}

function encodingOf(request: IncomingMessage): Encoding | undefined {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
}

function send(request: IncomingMessage, response: ServerResponse, served: Served): void {
  response.writeHead(200, {
    'content-type': served.type,
    'content-length': served.body.length,
    'cache-control': `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`,
    vary: 'accept-encoding',
    ...(served.encoding ? { 'content-encoding': served.encoding } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : served.body);
}

/** JSON inside a script element: `<` escaped, so no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page render-graphiql would render, with its bundle named instead of inlined. */
function pageHtml(assets: string): string {
  const workers = {
    editorWorkerService: `${assets}editor.worker.js`,
    json: `${assets}json.worker.js`,
    graphql: `${assets}graphql.worker.js`,
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${OPTIONS.title}</title>
    <link rel="icon" href="${assets}favicon.ico" />
    <link rel="stylesheet" href="${assets}graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      const workers = ${scriptJson(workers)};
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
    </script>
    <script src="${assets}graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${scriptJson(OPTIONS)});
    </script>
  </body>
</html>
`;
}
