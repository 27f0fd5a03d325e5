import { Agent, request as httpRequest } from 'node:http';
import { type Answer, REQUEST_DEADLINE_MS, STREAM_WINDOW_MS } from './answer.js';
import {
  ACCEPT_GRAPHQL,
  type FuzzRequest,
  type GraphqlRequest,
  payloadJson,
  payloadSearch,
  type RawHttpRequest,
} from './requests.js';
import { sendGraphqlWs, sendRawWs } from './ws-exchange.js';

/**
 * Sends one fuzz request and reads everything the gateway answers: a JSON body, the events of an SSE stream or
 * the parts of a multipart one; graphql-ws exchanges are ws-exchange.ts's.
 */

/** Bytes of an answer kept: a wide document asks for megabytes, and only its errors matter here. */
const ANSWER_BYTES_KEPT = 8 * 1024 * 1024;

/**
 * A connection per request: a kept-alive one left idle while a burst's others were busy can be closed by the
 * server just as the next request goes out on it (a reset no gateway could answer: 1 in 10,000 requests).
 */
const agent = new Agent({ keepAlive: false });

interface HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array | string;
  /** Read an event stream for this long, then end it (a subscription never ends by itself). */
  readonly streamFor?: number;
}

async function exchangeHttp(
  base: string,
  exchange: HttpExchange,
): Promise<{ status: number; type: string; text: string } | string> {
  return new Promise((resolve) => {
    const url = new URL(base);
    let request: ReturnType<typeof httpRequest>;
    try {
      request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: exchange.method,
          path: `${url.pathname}${exchange.path}`,
          headers: exchange.headers,
          agent,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const type = String(response.headers['content-type'] ?? '');
          const finish = () => {
            clearTimeout(deadline);
            resolve({ status: response.statusCode ?? 0, type, text: Buffer.concat(chunks).toString('utf8') });
          };
          if (STREAMED.test(type) && exchange.streamFor !== undefined) {
            const window = setTimeout(() => {
              response.destroy();
              finish();
            }, exchange.streamFor);
            response.on('close', () => clearTimeout(window));
          }
          response.on('data', (chunk: Buffer) => {
            if (kept < ANSWER_BYTES_KEPT) chunks.push(chunk);
            kept += chunk.length;
            if (/(^|\n)event: complete\n/.test(chunk.toString('utf8'))) response.destroy();
          });
          response.on('end', finish);
          response.on('close', finish);
        },
      );
    } catch (error) {
      resolve(`the client refused to send it: ${(error as Error).message}`);
      return;
    }
    const deadline = setTimeout(() => {
      request.destroy();
      resolve(`no answer within ${REQUEST_DEADLINE_MS} ms`);
    }, REQUEST_DEADLINE_MS);
    request.on('error', (error) => {
      clearTimeout(deadline);
      resolve(`request failed: ${error.message}`);
    });
    request.end(exchange.body === undefined ? undefined : Buffer.from(exchange.body));
  });
}

/** Answers that stream (subscriptions over SSE or incremental delivery): read for a window, then ended. */
const STREAMED = /^(text\/event-stream|multipart\/mixed)/;

/** The JSON parts of a multipart/mixed answer. */
function multipartResults(type: string, text: string): { results: unknown[]; unparsed: string[] } {
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1] ?? '-';
  const results: unknown[] = [];
  const unparsed: string[] = [];
  for (const part of text.split(`--${boundary}`)) {
    const start = part.indexOf('\r\n\r\n');
    const body = start === -1 ? '' : part.slice(start + 4).trim();
    if (!body) continue;
    try {
      results.push(JSON.parse(body));
    } catch {
      unparsed.push(body.slice(0, 200));
    }
  }
  return { results, unparsed };
}

/** The `next` payloads of an event stream. */
function streamResults(text: string): { results: unknown[]; unparsed: string[] } {
  const results: unknown[] = [];
  const unparsed: string[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    if (!lines.includes('event: next')) continue;
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('\n');
    try {
      results.push(JSON.parse(data));
    } catch {
      unparsed.push(data);
    }
  }
  return { results, unparsed };
}

function httpAnswer(outcome: Awaited<ReturnType<typeof exchangeHttp>>, bodyless = false): Answer {
  if (typeof outcome === 'string') return { results: [], unparsed: [], texts: [], failure: outcome };
  const { status, type, text } = outcome;
  if (type.startsWith('text/event-stream')) return { status, texts: [text], ...streamResults(text) };
  if (type.startsWith('multipart/mixed')) return { status, texts: [text], ...multipartResults(type, text) };
  if (bodyless || (text === '' && status === 204))
    return { status, results: [], unparsed: [], texts: [text] };
  try {
    return { status, results: [JSON.parse(text)], unparsed: [], texts: [text] };
  } catch {
    return {
      status,
      results: [],
      unparsed: [`status ${status}, ${type || 'no content-type'}: ${text.slice(0, 200)}`],
      texts: [text],
    };
  }
}

async function sendGraphqlHttp(url: string, request: GraphqlRequest): Promise<Answer> {
  const sse = request.via === 'sse';
  const accept = sse ? 'text/event-stream' : ACCEPT_GRAPHQL;
  const streamFor = STREAM_WINDOW_MS;
  if (request.via === 'get' || (sse && request.sseGet))
    return httpAnswer(
      await exchangeHttp(url, {
        method: 'GET',
        path: payloadSearch(request.payload),
        headers: { accept },
        streamFor,
      }),
    );
  return httpAnswer(
    await exchangeHttp(url, {
      method: 'POST',
      path: '',
      headers: { accept, 'content-type': 'application/json' },
      body: payloadJson(request.payload),
      streamFor,
    }),
  );
}

async function sendRawHttp(url: string, request: RawHttpRequest): Promise<Answer> {
  const headers: Record<string, string> = { accept: request.accept };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  const outcome = await exchangeHttp(url, {
    method: request.method,
    path: request.search,
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    streamFor: STREAM_WINDOW_MS,
  });
  return httpAnswer(outcome, request.method === 'HEAD');
}

/** Sends a request to the gateway at `url` (HTTP) / `wsUrl` (graphql-ws) and reads its answer. */
export async function send(url: string, wsUrl: string, request: FuzzRequest): Promise<Answer> {
  switch (request.kind) {
    case 'graphql':
      return request.via === 'ws' ? sendGraphqlWs(wsUrl, request) : sendGraphqlHttp(url, request);
    case 'burst':
      return merged(
        await Promise.all(Array.from({ length: request.copies }, () => send(url, wsUrl, request.request))),
      );
    case 'http':
      return sendRawHttp(url, request);
    default:
      return sendRawWs(wsUrl, request);
  }
}

/** The answers to a burst, as one. */
function merged(answers: readonly Answer[]): Answer {
  const failures = answers.flatMap((answer) => (answer.failure ? [answer.failure] : []));
  return {
    results: answers.flatMap((answer) => answer.results),
    unparsed: answers.flatMap((answer) => answer.unparsed),
    texts: answers.flatMap((answer) => answer.texts),
    ...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
  };
}
