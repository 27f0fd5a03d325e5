import { AppText } from '../app-text.js';
import { type Column, DataTable } from '../data-table.js';
import type { ParsedRunLog, RunLogLine } from './run-log-lines.js';

const COLUMNS: readonly Column<RunLogLine>[] = [
  {
    header: 'time',
    cell: (line) => (
      <time dateTime={line.time} title={line.time}>
        {formatTime(line.time)}
      </time>
    ),
  },
  { header: 'source', cell: (line) => <AppText text={line.source} /> },
  { header: 'level', cell: (line) => <AppText text={line.level} /> },
  { header: 'window', cell: (line) => <AppText text={line.windowId} /> },
  { header: 'message', class: 'text', cell: (line) => <AppText text={line.message} /> },
];

/** The run log as a table: when, where from (app output, console, dialog, Stagegraph), level, window, text. */
export function RunLogTable(props: { log: ParsedRunLog; caption: string }) {
  return (
    <DataTable
      label={props.caption}
      caption={props.caption}
      columns={COLUMNS}
      rows={props.log.lines}
      // Lines have no id; their order in the file is fixed, so the index is a stable key.
      rowKey={(_line, index) => index}
      rowClass={(line) => `level-${line.level}`}
    />
  );
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const clock = date.toLocaleTimeString(undefined, { hourCycle: 'h23' });
  return `${clock}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
