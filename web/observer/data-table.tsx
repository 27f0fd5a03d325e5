import type { ComponentChildren, Ref } from 'preact';

/** One column of a DataTable: its header and what a row shows in it. */
export interface Column<Row> {
  header: ComponentChildren;
  cell(row: Row): ComponentChildren;
  /** The cell's class: `time`, `number` and `text` (styles.css) set alignment and wrapping. */
  class?: string;
  /** The cell names its row (`<th scope="row">`), as a sequence number or a file name does. */
  rowHeader?: boolean;
}

/**
 * The observer's tables: a header row, then a row per item, inside a box that scrolls and is reachable
 * by keyboard — focusable and named, so its rows can be scrolled with the arrow keys even when they hold
 * nothing focusable, and a wide table scrolls sideways on a narrow screen.
 */
export function DataTable<Row>(props: {
  /** The scrolling region's name. */
  label: string;
  caption?: ComponentChildren;
  captionClass?: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row, index: number): string | number;
  rowClass?(row: Row): string | undefined;
  regionClass?: string;
  scrollerRef?: Ref<HTMLElement>;
  onScroll?: (event: Event & { currentTarget: HTMLElement }) => void;
}) {
  const { columns } = props;
  return (
    <section
      class={`table-scroll ${props.regionClass ?? ''}`}
      aria-label={props.label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region keyboard users must reach
      tabIndex={0}
      ref={props.scrollerRef}
      onScroll={props.onScroll}
    >
      <table>
        {props.caption === undefined ? null : <caption class={props.captionClass}>{props.caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) => (
              // Columns are fixed for a table's life: their order is their identity.
              <th key={index} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, rowIndex) => (
            <tr key={props.rowKey(row, rowIndex)} class={props.rowClass?.(row)}>
              {columns.map((column, index) =>
                column.rowHeader ? (
                  <th key={index} scope="row" class={column.class}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={index} class={column.class}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
