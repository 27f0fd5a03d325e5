import { useEffect, useRef } from 'preact/hooks';
import type { GatewayClient, GatewayError } from './gateway-client.js';

/**
 * Holds one subscription while the component is mounted and its variables stay the same; `onNext` and
 * `onError` may change on every render without resubscribing.
 */
export function useSubscription<T>(
  client: GatewayClient,
  document: string | null,
  variables: Record<string, unknown>,
  onNext: (data: T) => void,
  onError?: (error: GatewayError) => void,
): void {
  const handlers = useRef({ onNext, onError });
  handlers.current = { onNext, onError };
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (document === null) return;
    return client.subscribe<T>(document, JSON.parse(key) as Record<string, unknown>, {
      next: (data) => handlers.current.onNext(data),
      error: (error) => handlers.current.onError?.(error),
    });
  }, [client, document, key]);
}

/**
 * A read that runs one at a time: asked for again while it runs, it runs exactly once more after it, so a
 * burst of change events costs two reads, not one per event. Returns the (stable) function that asks.
 */
export function useCoalescedRead<T>(
  read: () => Promise<T>,
  onValue: (value: T) => void,
  onError: (error: GatewayError) => void,
): () => void {
  const handlers = useRef({ read, onValue, onError });
  handlers.current = { read, onValue, onError };
  const state = useRef({ running: false, again: false });
  const ask = useRef<(() => void) | null>(null);
  ask.current ??= () => {
    const reading = state.current;
    if (reading.running) {
      reading.again = true;
      return;
    }
    reading.running = true;
    handlers.current
      .read()
      .then(
        (value) => handlers.current.onValue(value),
        (error: GatewayError) => handlers.current.onError(error),
      )
      .finally(() => {
        reading.running = false;
        if (reading.again) {
          reading.again = false;
          ask.current?.();
        }
      });
  };
  return ask.current;
}

export function describeError(error: GatewayError): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** Keeps the newest `limit` items: every list the page shows is bounded. */
export function keepLast<T>(items: readonly T[], added: readonly T[], limit: number): T[] {
  const all = items.concat(added);
  return all.length > limit ? all.slice(all.length - limit) : all;
}
