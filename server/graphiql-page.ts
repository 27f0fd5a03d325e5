import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default.js';

type Encoding = 'br' | 'gzip';

const COMPRESS: Record<Encoding, (html: Buffer) => Promise<Buffer>> = {
  br: (html) => promisify(brotliCompress)(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (html) => promisify(gzip)(html, { level: 9 }),
};

/**
 * The offline GraphiQL page (several MB of bundled JS), rendered once and compressed on its first request
 * for each encoding, off the event loop: compressing both at start-up cost every gateway about a second of
 * CPU (a Node profile of one start), which every test that starts a gateway paid without ever asking for
 * the page. Subscriptions go over SSE: an SSE request is an ordinary HTTP request and carries the Headers
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
  const encoded = new Map<Encoding, Promise<Buffer>>();
  const bodyFor = (encoding: Encoding | undefined): Promise<Buffer> => {
    if (!encoding) return Promise.resolve(html);
    let body = encoded.get(encoding);
    if (!body) {
      body = COMPRESS[encoding](html);
      encoded.set(encoding, body);
    }
    return body;
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
    bodyFor(encoding).then(
      (body) => {
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': body.length,
          vary: 'accept-encoding',
          ...(encoding ? { 'content-encoding': encoding } : {}),
        });
        response.end(body);
      },
      () => {
        // Compression failed (out of memory): the page is still served, uncompressed.
        encoded.delete(encoding as Encoding);
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': html.length,
        });
        response.end(html);
      },
    );
    return true;
  };
}
