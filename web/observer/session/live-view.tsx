import { useEffect, useRef, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useSubscription } from '../gateway-hooks.js';

const SCREENCAST = `subscription ObserverScreencast($s: ID!, $w: ID) {
  screencast(session: $s, window: $w, maxFps: 10, quality: 60, maxWidth: 800) {
    seq data mimeType width height capturedAt source droppedBefore windowId
  }
}`;

interface Frame {
  seq: number;
  data: string;
  mimeType: string;
  width: number;
  height: number;
  capturedAt: string;
  source: string;
  droppedBefore: number;
  windowId: string;
}

/** Frames shown in this many milliseconds make the frame rate shown. */
const RATE_WINDOW_MS = 2_000;

/**
 * The window's live frames as an image: each frame becomes a blob URL, and the previous one is revoked
 * once the next is shown, so a long watch holds one frame's memory.
 */
export function LiveView(props: {
  client: GatewayClient;
  sessionId: string;
  windowId: string | null;
  windowTitle: string;
}) {
  const { client, sessionId, windowId, windowTitle } = props;
  const [frame, setFrame] = useState<{ url: string; meta: Omit<Frame, 'data'> } | null>(null);
  const [dropped, setDropped] = useState(0);
  const [fps, setFps] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const shownAt = useRef<number[]>([]);
  const current = useRef<string | null>(null);

  useEffect(() => {
    setFrame(null);
    setDropped(0);
    setProblem(null);
    shownAt.current = [];
  }, [sessionId, windowId]);

  useEffect(() => {
    const timer = setInterval(() => {
      const now = performance.now();
      shownAt.current = shownAt.current.filter((at) => now - at <= RATE_WINDOW_MS);
      setFps(shownAt.current.length / (RATE_WINDOW_MS / 1000));
    }, 1000);
    return () => {
      clearInterval(timer);
      if (current.current) URL.revokeObjectURL(current.current);
      current.current = null;
    };
  }, []);

  useSubscription<{ screencast: Frame }>(
    client,
    SCREENCAST,
    { s: sessionId, w: windowId },
    ({ screencast }) => {
      const { data, ...meta } = screencast;
      const url = URL.createObjectURL(new Blob([decodeBase64(data)], { type: meta.mimeType }));
      const previous = current.current;
      current.current = url;
      if (previous) URL.revokeObjectURL(previous);
      shownAt.current.push(performance.now());
      setFrame({ url, meta });
      setProblem(null);
      if (meta.droppedBefore > 0) setDropped((count) => count + meta.droppedBefore);
    },
    (error) => setProblem(describeError(error)),
  );

  return (
    <section aria-labelledby="live-heading" class="panel live">
      <h3 id="live-heading">Live view</h3>
      {problem ? (
        <p role="alert" class="error">
          Live view unavailable: <AppText text={problem} />
        </p>
      ) : null}
      <div class="frame">
        {frame ? (
          <img
            src={frame.url}
            width={frame.meta.width}
            height={frame.meta.height}
            alt={`Live view of ${windowTitle}`}
          />
        ) : (
          <p>Waiting for the first frame…</p>
        )}
      </div>
      <dl class="frame-stats">
        <dt>Frames per second</dt>
        <dd data-testid="live-fps">{fps.toFixed(1)}</dd>
        <dt>Dropped</dt>
        <dd data-testid="live-dropped">{dropped}</dd>
        <dt>Frame</dt>
        <dd data-testid="live-seq">{frame ? `#${frame.meta.seq} (${frame.meta.source})` : 'none'}</dd>
        <dt>Size</dt>
        <dd>{frame ? `${frame.meta.width}×${frame.meta.height}` : '-'}</dd>
      </dl>
    </section>
  );
}

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
