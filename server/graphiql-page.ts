import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default.js';

/**
 * The offline GraphiQL page (several MB of bundled JS), rendered and compressed once and served before
 * yoga. Subscriptions go over SSE: an SSE request is an ordinary HTTP request and carries the Headers
 * tab's `Authorization`, whereas GraphiQL's graphql-ws client sends no headers in connection_init, so
 * with `--token` a WebSocket subscription from the page could never authenticate.
 */
export function graphiqlPage(path: string) {
  const html = Buffer.from(
    renderGraphiQL({
      title: 'Stagegraph',
      subscriptionsProtocol: 'SSE',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    }),
  );
  const encoded = {
    br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: gzipSync(html, { level: 9 }),
  };
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const pathname = (request.url ?? '/').split('?')[0];
    const wantsPage =
      request.method === 'GET' &&
      (pathname === path || pathname === `${path}/`) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) return false;
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    const body = encoding ? encoded[encoding] : html;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(body);
    return true;
  };
}
