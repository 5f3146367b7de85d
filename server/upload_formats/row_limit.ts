// MAX_ROW_BYTES at upload: one row may not pass it. A row that is never
// finished (a quote that never closes, a 50 MB cell) would otherwise be held
// whole by the reader, here and in the job that reads the file.
import { formatMb, UploadFormatError } from "./limits.ts";

/** `row`: which row, as "The row that starts on line 12" or "Row 12 of …". */
export function rowTooLong(row: string, maxBytes: number): UploadFormatError {
  return new UploadFormatError(
    `${row} is longer than ${formatMb(maxBytes)} MB (MAX_ROW_BYTES). If a ` +
      'cell opens a quote (") that never closes, the rest of the file reads ' +
      "as that one cell: close the quote, or shorten the row.",
  );
}

export const startingOnLine = (line: number) =>
  `The row that starts on line ${line.toLocaleString("en-US")}`;
