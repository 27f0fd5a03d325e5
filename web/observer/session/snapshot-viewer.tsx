import { useEffect, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { ErrorAlert } from '../error-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useCoalescedRead, useSubscription } from '../gateway-hooks.js';
import { shownText } from '../shown-text.js';

const OUTLINE = `query ObserverOutline($s: ID!, $w: ID) { session(id: $s) { window(id: $w) {
  id title snapshot { outline takenAt totalNodes truncated } } } }`;
const CHANGES = `subscription ObserverSnapshotChanges($s: ID!, $w: ID) {
  snapshotChanges(session: $s, window: $w) { snapshotId windowId rendererReloaded } }`;

interface Outline {
  windowId: string;
  title: string;
  outline: string;
  takenAt: string;
  totalNodes: number;
  truncated: boolean;
}

interface OutlineData {
  session: {
    window: {
      id: string;
      title: string;
      snapshot: { outline: string; takenAt: string; totalNodes: number; truncated: boolean };
    };
  } | null;
}

/** The window's accessibility outline, read again (one read at a time) whenever snapshotChanges reports one. */
export function SnapshotViewer(props: { client: GatewayClient; sessionId: string; windowId: string | null }) {
  const { client, sessionId, windowId } = props;
  const [outline, setOutline] = useState<Outline | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [changes, setChanges] = useState(0);
  const refresh = useCoalescedRead(
    () => client.query<OutlineData>(OUTLINE, { s: sessionId, w: windowId }),
    (data) => {
      const window = data.session?.window;
      if (window) setOutline({ windowId: window.id, title: window.title, ...window.snapshot });
      setProblem(null);
    },
    (error) => setProblem(describeError(error)),
  );

  useEffect(refresh, [client, sessionId, windowId]);
  useSubscription(
    client,
    CHANGES,
    { s: sessionId, w: windowId },
    () => {
      setChanges((count) => count + 1);
      refresh();
    },
    (error) => setProblem(describeError(error)),
  );

  const outlineLabel = `Accessibility outline of ${shownText(outline?.title)}`;
  return (
    <section aria-labelledby="outline-heading" class="panel outline">
      <h3 id="outline-heading">Snapshot</h3>
      <ErrorAlert error={problem} />
      {outline ? (
        <>
          <p class="tail-counts">
            <AppText text={outline.windowId} /> “<AppText text={outline.title} />
            ”: {outline.totalNodes} nodes, read {new Date(outline.takenAt).toLocaleTimeString()}
            {outline.truncated ? ' (cut short)' : ''}; {changes} changes seen
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region keyboard users must reach */}
          <section class="outline-text" tabIndex={0} aria-label={outlineLabel}>
            <pre>
              <AppText text={outline.outline} lines />
            </pre>
          </section>
        </>
      ) : (
        <p>Reading the outline…</p>
      )}
    </section>
  );
}
