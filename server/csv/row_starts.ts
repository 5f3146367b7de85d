// Cuts a CSV upload into byte ranges of about N data rows, each starting at a
// row start, in one pass over its bytes. The rows must be the ones
// readCsvBatches (papaparse, csv_rows.ts) yields, or row numbers of the
// chunks would disagree with the whole file's:
// - a quote opens a quoted field only at the start of a field; inside one,
//   `""` is a quote, and a quote closes the field only when what follows is
//   whitespace and then the delimiter, the row's line end, or the end of the
//   file (else it is text and the field goes on, across line ends too);
// - the line end is the one papaparse guesses from the file's first piece
//   ("\r\n", "\n" or "\r"; guessNewline below), nothing else ends a row;
// - a row that is one empty field (an empty line, `""`) is skipped;
// - a byte order mark at the start of the file is dropped.
// Delimiter, quote and line-end bytes are ASCII, which no byte of a UTF-8
// multi-byte character is, so the scan works on bytes. (The whitespace
// papaparse allows after a closing quote is any JavaScript whitespace; this
// scan knows the ASCII ones, the others are unheard of in address lists.)
import { decodeText } from "./csv_rows.ts";

/** Rows [firstRow, firstRow + rows) of the data: bytes [start, end). */
export interface RowRange {
  start: number;
  end: number;
  /** Index of its first data row (the header row is not counted). */
  firstRow: number;
  /** Data rows in it. */
  rows: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const isSpace = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);

// Where the scan is: a field's start, inside an unquoted field, inside a
// quoted field, just after a quote within one, after a closing quote (and
// maybe whitespace); the *_CR states hold a CR that may start "\r\n".
const enum At {
  FieldStart,
  Unquoted,
  UnquotedCr,
  Quoted,
  QuoteSeen,
  AfterQuote,
  AfterQuoteCr,
}

/**
 * papaparse's guess of a text's line end (ParserHandle.guessLineEndings):
 * from its first megabyte with quoted parts taken out.
 */
export function guessNewline(text: string): "\n" | "\r\n" | "\r" {
  const input = text.substring(0, 1024 * 1024).replace(/"([^]*?)"/gm, "");
  const r = input.split("\r");
  const n = input.split("\n");
  if (r.length === 1 || (n.length > 1 && n[0].length < r[0].length)) {
    return "\n";
  }
  let withN = 0;
  for (const part of r) if (part[0] === "\n") withN++;
  return withN >= r.length / 2 ? "\r\n" : "\r";
}

/**
 * The line end papaparse uses for a whole file: it guesses from the first
 * piece of text it is given, which is readCsvBatches' first read.
 */
export async function fileNewline(
  path: string,
): Promise<"\n" | "\r\n" | "\r"> {
  const file = await Deno.open(path, { read: true });
  const reader = decodeText(file.readable).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return "\n";
      if (value) return guessNewline(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The file's data rows cut into ranges of `rowsPerRange` rows (the last
 * maybe fewer), in order, covering every data row once. A file with no
 * data rows gives one empty range after its header.
 */
export async function planRowRanges(
  path: string,
  delimiter: string,
  rowsPerRange: number,
): Promise<RowRange[]> {
  if (delimiter.length !== 1 || delimiter.charCodeAt(0) > 0x7f) {
    throw new Error(`unsupported delimiter ${JSON.stringify(delimiter)}`);
  }
  const delim = delimiter.charCodeAt(0);
  const newline = await fileNewline(path);
  // The byte that ends a row; for "\r\n" none alone (a CR waits in *_CR
  // for its LF, and a bare LF is text).
  const crlf = newline === "\r\n";
  const end = crlf ? -1 : newline === "\r" ? CR : LF;

  const ranges: RowRange[] = [];
  let state = At.FieldStart;
  let rowEmpty = true; // one field, nothing in it so far
  let rows = -1; // data rows counted; the header makes it 0
  let rangeStart = -1;
  let rangeRows = 0;
  let offset = 0; // of the buffer's first byte in the file

  const rowEnds = (next: number) => {
    // `next`: the offset of the following row's first byte.
    if (!rowEmpty) {
      if (rows >= 0) rangeRows++;
      rows++;
      if (rows === 0) rangeStart = next; // the header ended
      else if (rangeRows === rowsPerRange) {
        ranges.push({
          start: rangeStart,
          end: next,
          firstRow: rows - rangeRows,
          rows: rangeRows,
        });
        rangeStart = next;
        rangeRows = 0;
      }
    }
    state = At.FieldStart;
    rowEmpty = true;
  };

  const file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(1 << 20);
  try {
    let first = true;
    for (;;) {
      const count = await file.read(buffer);
      if (count === null) break;
      let i = 0;
      if (
        first && count >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb &&
        buffer[2] === 0xbf
      ) i = 3;
      first = false;
      for (; i < count; i++) {
        const b = buffer[i];
        switch (state) {
          case At.FieldStart:
            if (b === QUOTE) {
              state = At.Quoted;
              break;
            }
            state = At.Unquoted;
          // falls through: the byte is the field's first
          case At.Unquoted:
            if (b === delim) {
              rowEmpty = false;
              state = At.FieldStart;
            } else if (b === CR && crlf) state = At.UnquotedCr;
            else if (b === end) rowEnds(offset + i + 1);
            else rowEmpty = false;
            break;
          case At.UnquotedCr:
            if (b === LF) rowEnds(offset + i + 1);
            else {
              rowEmpty = false; // the CR was text
              state = At.Unquoted;
              i--; // this byte again, as text of the field
            }
            break;
          case At.Quoted:
            if (b === QUOTE) state = At.QuoteSeen;
            else rowEmpty = false;
            break;
          case At.QuoteSeen:
            if (b === QUOTE) {
              rowEmpty = false; // `""`: a quote in the text
              state = At.Quoted;
              break;
            }
            state = At.AfterQuote;
          // falls through: is the quote closing the field?
          case At.AfterQuote:
            if (b === delim) {
              rowEmpty = false;
              state = At.FieldStart;
            } else if (b === CR && crlf) state = At.AfterQuoteCr;
            else if (b === end) rowEnds(offset + i + 1);
            else if (!isSpace(b)) {
              // Not a closing quote: it and what followed are text.
              rowEmpty = false;
              state = At.Quoted;
              i--;
            }
            break;
          case At.AfterQuoteCr:
            if (b === LF) rowEnds(offset + i + 1);
            else {
              state = At.AfterQuote; // the CR was whitespace
              i--;
            }
            break;
        }
      }
      offset += count;
    }
  } finally {
    file.close();
  }
  // The last row, when the file does not end with a line end.
  if (
    state === At.UnquotedCr || state === At.AfterQuote ||
    state === At.AfterQuoteCr
  ) rowEmpty = false; // papaparse keeps such a tail as text
  if (state !== At.FieldStart || !rowEmpty) rowEnds(offset);
  if (rangeRows === 0 && ranges.length > 0) {
    ranges[ranges.length - 1].end = offset; // empty lines at the end
  } else {
    const start = rangeStart < 0 ? offset : rangeStart;
    ranges.push({
      start,
      end: offset,
      firstRow: Math.max(rows, 0) - rangeRows,
      rows: rangeRows,
    });
  }
  return ranges;
}
