import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { ErrorText } from '../error-text.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';
import { shownText } from '../shown-text.js';
import { type ParsedRunLog, parseRunLog } from './run-log-lines.js';
import { RunLogTable } from './run-log-table.js';

export interface ArtifactFile {
  path: string;
  size: number;
  modified: string;
  url: string;
}

/** Text shown from the end of a file past this size: logs are read from their latest lines. */
const TEXT_SHOWN_BYTES = 1024 * 1024;
/** Run log rows shown at most (the latest ones): a table of more is too slow to be useful. */
const RUN_LOG_ROWS = 2_000;

type Kind = 'image' | 'run-log' | 'text' | 'other';

function kindOf(path: string): Kind {
  const name = path.toLowerCase();
  if (/\.(png|jpe?g)$/.test(name)) return 'image';
  if (name.endsWith('.jsonl')) return 'run-log';
  if (/\.(log|txt)$/.test(name)) return 'text';
  return 'other';
}

type Loaded =
  | { state: 'loading' }
  | { state: 'failed'; error: GatewayError }
  | { state: 'ready'; blob: Blob; url: string; text: string | null; cut: boolean };

/**
 * One artifact, fetched through the client (the token goes in a header, never in a URL) and shown by
 * kind: an image, the run log as a table, text as preformatted text, anything else as a download.
 */
export function ArtifactViewer(props: { client: GatewayClient; file: ArtifactFile }) {
  const { client, file } = props;
  const kind = kindOf(file.path);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    let url: string | null = null;
    setLoaded({ state: 'loading' });
    client
      .fetchArtifact(file.url)
      .then(async (blob) => {
        const cut = (kind === 'text' || kind === 'run-log') && blob.size > TEXT_SHOWN_BYTES;
        const text =
          kind === 'text' || kind === 'run-log'
            ? await (cut ? blob.slice(blob.size - TEXT_SHOWN_BYTES) : blob).text()
            : null;
        if (!live) return;
        url = URL.createObjectURL(blob);
        setLoaded({ state: 'ready', blob, url, text: cut && text ? dropFirstLine(text) : text, cut });
      })
      .catch((error: GatewayError) => {
        if (live) setLoaded({ state: 'failed', error });
      });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [client, file.url, file.modified, kind]);

  const name = shownText(file.path.split('/').at(-1) ?? file.path);
  const path = shownText(file.path);
  return (
    <section
      class="artifact-viewer"
      aria-labelledby="artifact-viewer-heading"
      aria-busy={loaded.state === 'loading'}
    >
      <h3 id="artifact-viewer-heading">
        <AppText text={file.path} />
      </h3>
      <p role="status" class={loaded.state === 'loading' ? undefined : 'visually-hidden'}>
        {loaded.state === 'loading' ? `Loading ${path}…` : loaded.state === 'ready' ? `${path} shown.` : ''}
      </p>
      {loaded.state === 'failed' ? (
        <p class="error" role="alert">
          <ErrorText error={loaded.error} />
        </p>
      ) : null}
      {loaded.state === 'ready' ? (
        <>
          <Content kind={kind} file={file} loaded={loaded} />
          <p>
            <a href={loaded.url} download={name}>
              Download <AppText text={name} />
            </a>{' '}
            <span class="muted">({formatBytes(loaded.blob.size)})</span>
          </p>
        </>
      ) : null}
    </section>
  );
}

function Content(props: { kind: Kind; file: ArtifactFile; loaded: Extract<Loaded, { state: 'ready' }> }) {
  const { kind, file, loaded } = props;
  if (kind === 'image')
    return <img class="artifact-image" src={loaded.url} alt={`Screenshot ${shownText(file.path)}`} />;
  if (kind === 'run-log') return <RunLog path={file.path} text={loaded.text ?? ''} cut={loaded.cut} />;
  if (kind === 'text')
    return (
      <>
        {loaded.cut ? <p class="notice">Showing the last {formatBytes(TEXT_SHOWN_BYTES)}.</p> : null}
        <pre class="artifact-text">
          <AppText text={loaded.text} lines />
        </pre>
      </>
    );
  return <p>This file is not shown here; download it to open it.</p>;
}

function RunLog(props: { path: string; text: string; cut: boolean }) {
  const parsed = useMemo(() => parseRunLog(props.text), [props.text]);
  const shown: ParsedRunLog = { ...parsed, lines: parsed.lines.slice(-RUN_LOG_ROWS) };
  const hidden = parsed.lines.length - shown.lines.length;
  return (
    <>
      {props.cut || hidden > 0 ? <p class="notice">Showing the latest {shown.lines.length} lines.</p> : null}
      {parsed.unreadable > 0 ? (
        <p class="notice">{parsed.unreadable} lines were not JSON and are left out.</p>
      ) : null}
      <RunLogTable
        log={shown}
        caption={`${shownText(props.path)}, ${shown.lines.length} lines, oldest first`}
      />
    </>
  );
}

function dropFirstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? text : text.slice(newline + 1);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
