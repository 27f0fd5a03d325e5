import WebSocket from 'ws';

/** How long the server may take to acknowledge a graphql-ws connection, even on a loaded machine. */
const ACK_TIMEOUT_MS = 10_000;

/** What one subscription of a raw client has seen: counts and sequence checks, never the messages. */
export interface StreamTally {
  delivered: number;
  /** The sum of `droppedBefore`: what the server says this subscriber lost. */
  dropped: number;
  firstSeq: number;
  lastSeq: number;
  /** Deliveries whose seq was not `lastSeq + droppedBefore + 1`: an event lost without being reported. */
  unaccounted: number;
}

export interface TalliedDelivery {
  readonly droppedBefore: number;
  readonly entry: { readonly seq: number; readonly text?: string };
}

/** One subscription: its field (the key under `data`), its document, and an optional per-delivery hook. */
export interface TalliedSubscription {
  readonly field: string;
  readonly query: string;
  readonly onDelivery?: (delivery: TalliedDelivery) => void;
}

/**
 * A raw graphql-ws client with several subscriptions that keeps tallies, not messages, so a test's or
 * bench's own memory stays flat however much it receives. `pause` stops reading its socket: kernel
 * buffers fill, the server's sends wait, and only the server's bounded queue is left to absorb the rest.
 */
export async function talliedClient(wsUrl: string, subscriptions: readonly TalliedSubscription[]) {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  const tallies = subscriptions.map(
    (): StreamTally => ({ delivered: 0, dropped: 0, firstSeq: 0, lastSeq: 0, unaccounted: 0 }),
  );
  const errors: unknown[] = [];
  let acked: () => void = () => {};
  const ack = new Promise<void>((resolve) => {
    acked = resolve;
  });
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      id?: string;
      payload?: { data?: Record<string, TalliedDelivery>; errors?: unknown[] } | unknown[];
    };
    if (message.type === 'connection_ack') acked();
    if (message.type === 'error') errors.push(message.payload);
    if (message.type !== 'next' || message.id === undefined) return;
    const index = Number(message.id);
    const subscription = subscriptions[index];
    const tally = tallies[index];
    const payload = message.payload as { data?: Record<string, TalliedDelivery>; errors?: unknown[] };
    if (payload.errors) errors.push(...payload.errors);
    const delivery = subscription && payload.data?.[subscription.field];
    if (!subscription || !tally || !delivery) return;
    const { seq } = delivery.entry;
    if (tally.delivered === 0) tally.firstSeq = seq;
    else if (seq !== tally.lastSeq + delivery.droppedBefore + 1) tally.unaccounted += 1;
    tally.delivered += 1;
    tally.dropped += delivery.droppedBefore;
    tally.lastSeq = seq;
    subscription.onDelivery?.(delivery);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init' }));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no connection_ack within ${ACK_TIMEOUT_MS} ms`)),
      ACK_TIMEOUT_MS,
    );
  });
  await Promise.race([ack, late]).finally(() => clearTimeout(timer));
  for (const [index, subscription] of subscriptions.entries()) {
    const subscribe = { id: String(index), type: 'subscribe', payload: { query: subscription.query } };
    socket.send(JSON.stringify(subscribe));
  }
  return {
    tallies,
    errors,
    // ws's own pause: a bare socket pause is undone by ws whenever its parser drains.
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.close(),
  };
}
