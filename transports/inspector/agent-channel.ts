import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

/** A line longer than this is not a message but an attack or a bug: the channel closes. */
const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * The injected agent's own loopback connection to the gateway: newline-delimited JSON both ways, with
 * TCP_NODELAY on both ends. The inspector's websocket serves install, eval and console; it cannot carry
 * the debugger relay, because Node's inspector socket leaves Nagle's algorithm on, so a message written
 * right after another waits for the client's delayed ACK (~40 ms a round trip, measured). The agent
 * proves itself with a one-time token on its first line; one connection, then the server stops listening.
 */
export class AgentChannel {
  readonly port: number;
  readonly token = randomBytes(24).toString('hex');
  readonly #server: Server;
  #socket: Socket | null = null;
  readonly #listeners = new Set<(message: unknown) => void>();
  readonly #closeListeners = new Set<() => void>();
  #proven!: () => void;
  /** Resolves once the agent has connected and proved itself with the token. */
  readonly connected = new Promise<void>((resolve) => {
    this.#proven = resolve;
  });

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.port = port;
    server.on('connection', (socket) => this.#accept(socket));
  }

  static open(): Promise<AgentChannel> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(new AgentChannel(server, typeof address === 'object' && address ? address.port : 0));
      });
    });
  }

  onMessage(listener: (message: unknown) => void): void {
    this.#listeners.add(listener);
  }

  onClose(listener: () => void): void {
    this.#closeListeners.add(listener);
  }

  send(message: unknown): void {
    this.#socket?.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends the connection; resolves once its socket has closed. */
  async close(): Promise<void> {
    this.#server.close();
    const socket = this.#socket;
    if (!socket || socket.closed) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.destroy();
    await closed;
  }

  #accept(socket: Socket): void {
    if (this.#socket) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    let buffered = '';
    let proven = false;
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.length > MAX_LINE_BYTES) {
        socket.destroy();
        return;
      }
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!proven) {
          if (!sameToken(line, this.token)) {
            socket.destroy();
            return;
          }
          proven = true;
          this.#socket = socket;
          // One agent per channel: nobody else may connect once it has.
          this.#server.close();
          this.#proven();
        } else if (line) {
          const message = JSON.parse(line) as unknown;
          for (const listener of this.#listeners) listener(message);
        }
        newline = buffered.indexOf('\n');
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      for (const listener of this.#closeListeners) listener();
    });
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
