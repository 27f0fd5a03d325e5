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
