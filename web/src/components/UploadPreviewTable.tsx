// The first rows of an upload on the configuration step, the chosen IP
// column highlighted, so the user sees which values will be looked up. The
// table scrolls inside its own box: the page never scrolls sideways.

import { ScrollRegion } from "./ScrollTable.tsx";

interface Props {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  /** The chosen IP column's header. */
  column: string;
}

export function UploadPreviewTable({ headers, rows, column }: Props) {
  if (rows.length === 0) return null;
  const chosen = headers.indexOf(column);
  const mark = (index: number) =>
    index === chosen ? "chosen-column" : undefined;
  return (
    <figure className="upload-preview">
      <figcaption className="muted">
        <small>
          First {rows.length}{" "}
          {rows.length === 1 ? "row" : "rows"}; the highlighted column is looked
          up
        </small>
      </figcaption>
      <ScrollRegion className="table-scroll" label="First rows of the file">
        <table>
          <thead>
            <tr>
              {headers.map((header, index) => (
                <th
                  key={index}
                  scope="col"
                  className={mark(index)}
                  aria-current={index === chosen ? "true" : undefined}
                >
                  {header || `(column ${index + 1})`}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {headers.map((_, index) => (
                  <td key={index} className={mark(index)}>
                    {row[index] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </figure>
  );
}
