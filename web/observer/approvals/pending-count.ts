import { useEffect, useState } from 'preact/hooks';

/**
 * How many approvals wait, for whoever wants to show it (the shell's header): the approvals panel
 * publishes, any component reads with usePendingApprovalCount. One page has one approvals panel.
 */
let pendingCount = 0;
const listeners = new Set<(count: number) => void>();

export function publishPendingApprovalCount(count: number): void {
  if (count === pendingCount) return;
  pendingCount = count;
  for (const listener of listeners) listener(count);
}

/** Calls `listener` with each new count; returns the function that stops it. */
function onPendingApprovalCount(listener: (count: number) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The number of approvals waiting, re-rendering when it changes. */
export function usePendingApprovalCount(): number {
  const [count, setCount] = useState(pendingCount);
  useEffect(() => {
    setCount(pendingCount);
    return onPendingApprovalCount(setCount);
  }, []);
  return count;
}
