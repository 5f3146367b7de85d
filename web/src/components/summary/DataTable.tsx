// A chart's data as a table, behind a toggle: the chart's full text
// alternative, readable without JavaScript (it is server-rendered).

import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

interface Props<T> {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  /** The toggle's words. */
  toggle?: string;
}

export function DataTable<T>(
  { caption, columns, rows, toggle = "Show as table" }: Props<T>,
) {
  return (
    <details className="summary-table">
      <summary>{toggle}</summary>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.numeric ? "num" : ""}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.header} className={c.numeric ? "num" : ""}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
