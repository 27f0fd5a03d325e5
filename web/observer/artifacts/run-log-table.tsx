import { AppText } from '../app-text.js';
import type { ParsedRunLog } from './run-log-lines.js';

/** The run log as a table: when, where from (app output, console, dialog, Stagegraph), level, window, text. */
export function RunLogTable(props: { log: ParsedRunLog; caption: string }) {
  return (
    // A wide table scrolls sideways on a narrow screen: the region takes focus so keys can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be keyboard-reachable
    <section class="artifact-table-wrap" aria-labelledby="run-log-caption" tabIndex={0}>
      <table class="run-log-table">
        <caption id="run-log-caption">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">time</th>
            <th scope="col">source</th>
            <th scope="col">level</th>
            <th scope="col">window</th>
            <th scope="col">message</th>
          </tr>
        </thead>
        <tbody>
          {props.log.lines.map((line, index) => (
            // Lines have no id; their order in the file is fixed, so the index is a stable key.
            <tr key={index} class={`level-${line.level}`}>
              <td>
                <time dateTime={line.time} title={line.time}>
                  {formatTime(line.time)}
                </time>
              </td>
              <td>
                <AppText text={line.source} />
              </td>
              <td>
                <AppText text={line.level} />
              </td>
              <td>
                <AppText text={line.windowId} />
              </td>
              <td class="message">
                <AppText text={line.message} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const clock = date.toLocaleTimeString(undefined, { hourCycle: 'h23' });
  return `${clock}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
