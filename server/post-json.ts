import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * POSTs a JSON body and answers the JSON the server sent back, over node:http(s) and its keep-alive
 * global agent. Not fetch: Node 20's fetch (undici) wraps each call in WHATWG request, stream and
 * response objects, and on a replica forwarding to an owner that was the larger part of the forward's
 * own CPU; here the head and the body leave in one write and the answer is read as it comes.
 * Rejects when the connection fails, is cut off, `signal` aborts, or the answer is not JSON.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        response.on('close', () => {
          if (!response.complete) reject(new Error(`The answer from ${url} was cut off.`));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
