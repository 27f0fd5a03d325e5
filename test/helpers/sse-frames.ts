/**
 * The frames of a server-sent-event stream, in order, as they arrive: each the text between two blank lines
 * (`data: …`, `event: …`, or a `:` ping).
 */
export async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
    }
  }
}

/** The JSON of a frame's `data:` line, if it has one. */
export function frameData(frame: string): unknown {
  const data = /^data: (.*)$/m.exec(frame)?.[1];
  return data ? JSON.parse(data) : undefined;
}

/** A subscription over SSE, read as it arrives: its results and frames, until it ends or is closed. */
export interface SseStream<T> {
  /** Every result a `data:` line carried, in order. */
  readonly results: T[];
  /** Every frame, pings and `event:` lines included, in order. */
  readonly frames: string[];
  /** Settles when the stream ends: with nothing when it ended cleanly or was closed, else why it broke off. */
  readonly ended: Promise<unknown>;
  /** Resolves with the first result that matches, waiting at most `timeoutMs` for it. */
  waitFor(matches: (result: T) => boolean, timeoutMs: number): Promise<T>;
  /** Ends the request, as a client that goes away does. */
  close(): Promise<void>;
}

/** POSTs `query` to `url` as a subscription over SSE (`accept: text/event-stream`). */
export function sseStream<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
): SseStream<T> {
  const controller = new AbortController();
  const results: T[] = [];
  const frames: string[] = [];
  const waiters = new Set<() => void>();
  const ended = fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  })
    .then(async (response) => {
      for await (const frame of sseFrames(response.body as ReadableStream<Uint8Array>)) {
        frames.push(frame);
        const data = frameData(frame);
        if (data) results.push(data as T);
        for (const waiter of waiters) waiter();
      }
      return undefined;
    })
    .catch((error: unknown) => (controller.signal.aborted ? undefined : error));
  return {
    results,
    frames,
    ended,
    waitFor(matches, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = results.find(matches);
          if (found === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching SSE result in ${timeoutMs} ms: ${JSON.stringify(results)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await ended;
    },
  };
}
