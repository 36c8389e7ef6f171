/**
 * The one shape of the console's tables: a heading per column (a catalogue key), a row per item,
 * and what to show instead when there are no items. Each page says only its columns.
 */
import type { Child } from 'hono/jsx';
import type { MessageKey, Translate } from '../i18n.js';

/** One column: its heading's catalogue key and how an item fills its cell. */
export interface Column<Row> {
  head: MessageKey;
  cell: (row: Row) => Child;
  /** The cell's class: `num` for figures (right-aligned), `message`, `hint`. */
  class?: string;
}

export function DataTable<Row>(props: {
  t: Translate;
  rows: readonly Row[];
  /** `false` leaves a column out (`condition && column`). */
  columns: readonly (Column<Row> | false | undefined)[];
  class?: string;
  /** Shown when there are no rows; by default "none" in muted text. */
  empty?: Child;
}) {
  const { t } = props;
  if (props.rows.length === 0) return props.empty === undefined ? <p class="muted">{t('common.none')}</p> : props.empty;
  const columns = props.columns.filter((column): column is Column<Row> => Boolean(column));
  return (
    <table class={props.class}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th>{t(column.head)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            {columns.map((column) => (
              <td class={column.class}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
