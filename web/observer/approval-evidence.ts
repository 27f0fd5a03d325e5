import { useEffect, useState } from 'preact/hooks';
import type { GatewayClient } from './gateway-client.js';

/**
 * The element screenshots approvers were shown, by approval request id, taken from what the page's one
 * approval stream already delivers: the step trace shows each beside the step it decided, with no second
 * approvalRequests subscription (every approver subscription counts as one more approver watching).
 */
const LIMIT = 20;
const shots = new Map<string, string>();
const listeners = new Set<() => void>();

interface Screenshot {
  mimeType: string;
  base64: string;
}

function isScreenshot(value: unknown): value is Screenshot {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Screenshot).mimeType === 'string' &&
    typeof (value as Screenshot).base64 === 'string'
  );
}

/** Finds every `{ id, screenshot: { mimeType, base64 } }` in a result (requests, alone or in lists). */
function collect(value: unknown, depth = 0): void {
  if (depth > 4 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, depth + 1);
    return;
  }
  const record = value as { id?: unknown; screenshot?: unknown };
  if (typeof record.id === 'string' && isScreenshot(record.screenshot)) {
    if (!shots.has(record.id)) {
      shots.set(record.id, `data:${record.screenshot.mimeType};base64,${record.screenshot.base64}`);
      while (shots.size > LIMIT) shots.delete(shots.keys().next().value as string);
      for (const listener of listeners) listener();
    }
    return;
  }
  for (const child of Object.values(value)) collect(child, depth + 1);
}

/** The same client, keeping the screenshots of the approval requests its results carry. */
export function keepingApprovalEvidence(client: GatewayClient): GatewayClient {
  return {
    query<T>(document: string, variables?: Record<string, unknown>) {
      return client.query<T>(document, variables).then((data) => {
        collect(data);
        return data;
      });
    },
    mutate: (document, variables) => client.mutate(document, variables),
    subscribe<T>(
      document: string,
      variables: Record<string, unknown>,
      sink: Parameters<GatewayClient['subscribe']>[2],
    ) {
      return client.subscribe<T>(document, variables, {
        ...sink,
        next: (data: T) => {
          collect(data);
          sink.next(data);
        },
      });
    },
    fetchArtifact: (path) => client.fetchArtifact(path),
    close: () => client.close(),
  };
}

/** The screenshot shown for approval request `id`, as a data: URL; undefined until the page has seen it. */
export function approvalScreenshot(id: string): string | undefined {
  return shots.get(id);
}

/** approvalScreenshot, re-rendering when it arrives. */
export function useApprovalScreenshot(id: string | null | undefined): string | undefined {
  const [, rerender] = useState(0);
  useEffect(() => {
    if (!id || shots.has(id)) return;
    const listener = () => {
      if (shots.has(id)) rerender((count) => count + 1);
    };
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, [id]);
  return id ? shots.get(id) : undefined;
}
