// MAX_ROW_BYTES at upload: one row may not pass it. A row that is never
// finished (a quote that never closes, a 50 MB cell) would otherwise be held
// whole by the parser, here and in the job that reads the file. Measured on
// the text as it streams, in characters (a byte each for plain text).
import type { ChunkParser } from "../csv/csv_rows.ts";
import { formatMb, UploadFormatError } from "./limits.ts";

/** `row`: which row, as "The row that starts on line 12" or "Row 12 of …". */
export function rowTooLong(row: string, maxChars: number): UploadFormatError {
  return new UploadFormatError(
    `${row} is longer than ${formatMb(maxChars)} MB (MAX_ROW_BYTES). If a ` +
      'cell opens a quote (") that never closes, the rest of the file reads ' +
      "as that one cell: close the quote, or shorten the row.",
  );
}

const startingOnLine = (line: number) =>
  `The row that starts on line ${line.toLocaleString("en-US")}`;

const rowLength = (row: string[]) =>
  row.reduce((n, cell) => n + cell.length, row.length - 1);

/** Counts the line breaks in `text` (CR-only files count CRs). */
function breaks(text: string, linebreak: string): number {
  const mark = linebreak === "\r" ? "\r" : "\n";
  let n = 0;
  for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + 1)) {
    n++;
  }
  return n;
}

/** Watches a ChunkParser's rows, pushed text and all, for a row too long. */
export class RowLimit {
  /** Characters pushed to the parser. */
  #pushed = 0;
  /** The text of the row not yet finished. */
  #open = "";
  /** Line breaks before it. */
  #lines = 0;

  constructor(private readonly maxChars: number) {}

  /**
   * After `rows = parser.push(text)`: throws when the unfinished row, or a
   * row finished now that began in an earlier push, is over the limit. (A
   * row inside one push is at most a read, far under any limit.)
   */
  check(text: string, rows: string[][], parser: ChunkParser): void {
    this.#pushed += text.length;
    const all = this.#open + text;
    const unfinished = this.#pushed - parser.cursor;
    const finished = all.slice(0, all.length - unfinished);
    const linebreak = parser.newline ?? "\n";
    if (this.#open !== "" && rows.length > 0) {
      if (rowLength(rows[0]) > this.maxChars) {
        throw rowTooLong(
          startingOnLine(this.#startLine(this.#open, linebreak)),
          this.maxChars,
        );
      }
    }
    this.#lines += breaks(finished, linebreak);
    this.#open = all.slice(finished.length);
    if (this.#open.length > this.maxChars) {
      throw rowTooLong(
        startingOnLine(this.#startLine(this.#open, linebreak)),
        this.maxChars,
      );
    }
  }

  /** The line a row starts on: blank lines before it are skipped. */
  #startLine(row: string, linebreak: string): number {
    const blank = row.match(/^[\r\n]*/)![0];
    return this.#lines + breaks(blank, linebreak) + 1;
  }
}
