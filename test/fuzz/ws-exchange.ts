import WebSocket from 'ws';
import { ERROR_CODES } from '../../errors/registry.js';
import { type Answer, REQUEST_DEADLINE_MS, STREAM_WINDOW_MS } from './answer.js';
import { PARTICULARS } from './judge.js';
import { type GraphqlRequest, payloadJson, type RawWsRequest } from './requests.js';

/**
 * graphql-ws exchanges, over raw `ws` frames: a fuzzed operation as one subscribe, or fuzzed frames as they
 * are. Afterwards a `{ __typename }` subscribe follows on the same socket: it must still answer, whatever the
 * fuzzed operation or frames did.
 */

/** How long raw frames are given to be answered or closed on. */
const FRAME_SETTLE_MS = 300;

/** A graphql-ws connection read as a list of frames, with waits on what arrives. */
class Socket {
  readonly frames: Record<string, unknown>[] = [];
  readonly texts: string[] = [];
  closed?: { code: number; reason: string };
  refused?: string;
  /** Why the client itself gave up on the connection (ws refuses a handshake without the subprotocol asked for). */
  clientError?: string;
  readonly #socket: WebSocket;
  #changed: () => void = () => {};

  constructor(url: string, subprotocol: string) {
    this.#socket = new WebSocket(url, subprotocol ? [subprotocol] : []);
    this.#socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.texts.push(text);
      try {
        this.frames.push(JSON.parse(text));
      } catch {
        this.frames.push({ type: 'unparsed', text });
      }
      this.#changed();
    });
    this.#socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.texts.push(this.closed.reason);
      this.#changed();
    });
    this.#socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      response.on('end', () => {
        this.refused = `status ${response.statusCode}: ${body}`;
        this.texts.push(body);
        this.#changed();
      });
    });
    this.#socket.on('open', () => this.#changed());
    this.#socket.on('error', (error) => {
      this.clientError = error.message;
      this.#changed();
    });
  }

  /** Resolves when `done` holds, the socket is gone, or `ms` have passed; says whether `done` held. */
  async until(done: () => boolean, ms: number): Promise<boolean> {
    const ended = () => done() || this.closed !== undefined || this.refused !== undefined;
    if (ended()) return done();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#changed = () => {
        if (!ended()) return;
        clearTimeout(timer);
        resolve();
      };
    });
    this.#changed = () => {};
    return done();
  }

  get open(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  send(frame: string | Uint8Array): void {
    if (this.open) this.#socket.send(frame);
  }

  has(id: string, ...types: string[]): boolean {
    return this.frames.some((frame) => frame.id === id && types.includes(String(frame.type)));
  }

  results(): unknown[] {
    return this.frames.flatMap((frame) => {
      if (frame.type === 'next') return [frame.payload];
      if (frame.type === 'error') return [{ errors: frame.payload }];
      return [];
    });
  }

  terminate(): void {
    this.#socket.terminate();
  }
}

/** `{ __typename }` on an open, acknowledged socket: it must answer (the connection outlived what came before). */
async function stillAnswers(socket: Socket): Promise<string | undefined> {
  socket.send(JSON.stringify({ id: 'follow-up', type: 'subscribe', payload: { query: '{ __typename }' } }));
  if (await socket.until(() => socket.has('follow-up', 'complete', 'error'), REQUEST_DEADLINE_MS))
    return undefined;
  return socket.closed
    ? `graphql-ws closed ${socket.closed.code} before answering a follow-up { __typename }${PARTICULARS}${socket.closed.reason}`
    : 'graphql-ws left a follow-up { __typename } unanswered';
}

export async function sendGraphqlWs(wsUrl: string, request: GraphqlRequest): Promise<Answer> {
  const socket = new Socket(wsUrl, 'graphql-transport-ws');
  try {
    await socket.until(() => socket.open, REQUEST_DEADLINE_MS);
    socket.send('{"type":"connection_init"}');
    if (
      !(await socket.until(
        () => socket.frames.some((frame) => frame.type === 'connection_ack'),
        REQUEST_DEADLINE_MS,
      ))
    )
      return {
        results: [],
        unparsed: [],
        texts: socket.texts,
        failure: `graphql-ws: no connection_ack${PARTICULARS}${socket.refused ?? JSON.stringify(socket.closed)}`,
      };
    socket.send(`{"id":"fuzz","type":"subscribe","payload":${payloadJson(request.payload)}}`);
    const done = () => socket.has('fuzz', 'complete', 'error');
    // A subscription may stream nothing: it is read for a window and completed; anything else must answer.
    const subscription = /\bsubscription\b/.test(request.payload.query);
    const answered =
      (await socket.until(done, STREAM_WINDOW_MS)) ||
      (!subscription && (await socket.until(done, REQUEST_DEADLINE_MS)));
    if (!answered && socket.open) {
      if (!subscription)
        return {
          results: socket.results(),
          unparsed: [],
          texts: socket.texts,
          failure: `no answer on graphql-ws within ${REQUEST_DEADLINE_MS} ms`,
        };
      socket.send('{"id":"fuzz","type":"complete"}');
    }
    const failure =
      socket.closed && !oversizeClose(socket.closed)
        ? `graphql-ws closed ${socket.closed.code} on a well-formed subscribe${PARTICULARS}${socket.closed.reason}`
        : socket.closed
          ? undefined
          : await stillAnswers(socket);
    return {
      results: socket.results(),
      unparsed: [],
      texts: socket.texts,
      ...(socket.closed ? { closed: socket.closed } : {}),
      ...(failure ? { failure } : {}),
    };
  } finally {
    socket.terminate();
  }
}

/** Closes graphql-ws may answer malformed frames with: the protocol's own, not a server fault. */
export const PROTOCOL_CLOSES = new Set([1000, 4400, 4401, 4403, 4406, 4409, 4429]);
/** WebSocket's "message too big", the one close a frame too large to read may get: with a registered code. */
const MESSAGE_TOO_BIG = 1009;

function oversizeClose(closed: { code: number; reason: string }): boolean {
  const code = /^([A-Z_]+):/.exec(closed.reason)?.[1];
  return closed.code === MESSAGE_TOO_BIG && code !== undefined && code in ERROR_CODES && code !== 'INTERNAL';
}

export async function sendRawWs(wsUrl: string, request: RawWsRequest): Promise<Answer> {
  const socket = new Socket(wsUrl, request.subprotocol);
  try {
    await socket.until(() => socket.open, REQUEST_DEADLINE_MS);
    if (request.init !== null) {
      socket.send(request.init);
      await socket.until(
        () => socket.frames.some((frame) => frame.type === 'connection_ack'),
        FRAME_SETTLE_MS * 3,
      );
    }
    for (const frame of request.frames) socket.send(frame);
    await socket.until(() => false, FRAME_SETTLE_MS);
    const acked = socket.frames.some((frame) => frame.type === 'connection_ack');
    let failure: string | undefined;
    // A subprotocol the server does not take is refused in the handshake: the ws client gives up (1006).
    const unsupported = socket.clientError === 'Server sent no subprotocol';
    if (
      socket.closed &&
      !PROTOCOL_CLOSES.has(socket.closed.code) &&
      !oversizeClose(socket.closed) &&
      !unsupported
    )
      failure = `graphql-ws closed ${socket.closed.code} on malformed frames${PARTICULARS}${socket.closed.reason} (client: ${socket.clientError ?? 'no error'})`;
    else if (socket.open && acked) {
      const unanswered = await stillAnswers(socket);
      // On a loaded machine the protocol's close for a malformed frame can come after FRAME_SETTLE_MS, while
      // the follow-up waits (seed 7, load 29: 4400 "Invalid message received"): still the protocol's answer.
      failure = socket.closed && PROTOCOL_CLOSES.has(socket.closed.code) ? undefined : unanswered;
    }
    const results = socket.results();
    const refused = socket.refused === undefined ? [] : [socket.refused];
    return {
      results,
      unparsed: [],
      texts: [...socket.texts, ...refused],
      ...(socket.closed ? { closed: socket.closed } : {}),
      ...(failure ? { failure } : {}),
    };
  } finally {
    socket.terminate();
  }
}
