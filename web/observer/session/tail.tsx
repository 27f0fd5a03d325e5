import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { DataTable } from '../data-table.js';
import { ErrorAlert } from '../error-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, keepLast, useSubscription } from '../gateway-hooks.js';

/** Each tail keeps this many entries; older ones leave, counted. */
export const TAIL_LIMIT = 500;

export interface TailEntry {
  key: string;
  time: string;
  kind: string;
  text: string;
}

export interface TailSource<T> {
  /** A subscription whose deliveries `read` turns into an entry and the stream's drop count. */
  document: string;
  variables: Record<string, unknown>;
  read(data: T): { entry: TailEntry; droppedBefore: number };
  /** Entries kept before subscribing, for streams that cannot replay them. */
  initial?: () => Promise<TailEntry[]>;
}

export interface TailState {
  entries: TailEntry[];
  /** Events the gateway dropped for this reader (the stream's droppedBefore, summed). */
  dropped: number;
  /** Entries this page let go of to stay within TAIL_LIMIT. */
  trimmed: number;
  problem: string | null;
}

export function useTail<T>(client: GatewayClient, source: TailSource<T> | null): TailState {
  const [state, setState] = useState<TailState>({ entries: [], dropped: 0, trimmed: 0, problem: null });
  const seen = useRef(new Set<string>());
  const add = (entries: TailEntry[], dropped: number) =>
    setState((current) => {
      const fresh = entries.filter((entry) => !seen.current.has(entry.key));
      for (const entry of fresh) seen.current.add(entry.key);
      const kept = keepLast(current.entries, fresh, TAIL_LIMIT);
      const gone = current.entries.length + fresh.length - kept.length;
      // The keys of entries let go of are forgotten too: the set stays as bounded as the list.
      for (const entry of current.entries.slice(0, Math.min(gone, current.entries.length)))
        seen.current.delete(entry.key);
      return {
        ...current,
        entries: kept,
        dropped: current.dropped + dropped,
        trimmed: current.trimmed + gone,
      };
    });
  const initial = source?.initial;
  useEffect(() => {
    initial?.().then(
      (entries) => add(entries, 0),
      (error) => setState((current) => ({ ...current, problem: describeError(error) })),
    );
  }, [initial]);
  useSubscription<T>(
    client,
    source?.document ?? null,
    source?.variables ?? {},
    (data) => {
      if (!source) return;
      const { entry, droppedBefore } = source.read(data);
      add([entry], droppedBefore);
    },
    (error) => setState((current) => ({ ...current, problem: describeError(error) })),
  );
  return state;
}

/** One stream's entries as a filterable table, newest last, with what was dropped said above it. */
export function TailTable(props: { id: string; title: string; kindLabel: string; state: TailState }) {
  const { id, title, kindLabel, state } = props;
  const [filter, setFilter] = useState('');
  const scroller = useRef<HTMLElement>(null);
  const following = useRef(true);
  // Newest last: the view follows new entries while it is scrolled to the end, and stays put otherwise.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  });
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? state.entries.filter((entry) => `${entry.kind} ${entry.text}`.toLowerCase().includes(needle))
    : state.entries;
  return (
    <section aria-labelledby={`${id}-heading`} class="tail">
      <h4 id={`${id}-heading`}>{title}</h4>
      <div class="tail-controls">
        <label for={`${id}-filter`}>Filter {title.toLowerCase()}</label>
        <input
          id={`${id}-filter`}
          type="search"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
        <p class="tail-counts" aria-live="polite">
          {shown.length} shown of {state.entries.length} kept
          {state.trimmed > 0 ? `; ${state.trimmed} older let go (last ${TAIL_LIMIT} kept)` : ''}
          {state.dropped > 0
            ? `; ${state.dropped} dropped by the gateway (read too slowly)`
            : '; none dropped'}
        </p>
      </div>
      <ErrorAlert error={state.problem} />
      <DataTable
        label={`${title} entries`}
        regionClass="tail-scroll"
        scrollerRef={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
        columns={[
          { header: 'Time', class: 'time', cell: (entry) => timeOfDay(entry.time) },
          { header: kindLabel, cell: (entry) => <AppText text={entry.kind} /> },
          { header: 'Text', class: 'text', cell: (entry) => <AppText text={entry.text} /> },
        ]}
        rows={shown}
        rowKey={(entry) => entry.key}
      />
    </section>
  );
}

export function timeOfDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(11, 23);
}
