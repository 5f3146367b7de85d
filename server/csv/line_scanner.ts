// The one CSV reader: a quote-aware scanner over bytes. The upload's reader
// (routes/csv_upload_reader.ts) cuts the stored file with it and a chunk
// (chunk_lines.ts) reads its lines with it, so both see the same records.
// A record is kept as the bytes it was stored as; a cell is decoded only when
// asked for. Delimiter, quote and line end are ASCII, so the scanner works
// on UTF-8 and on any other ASCII-compatible encoding a file may be in.
import { shortAscii } from "../ascii_text.ts";
import type { Dialect } from "./dialect.ts";
import { resized } from "../typed_arrays.ts";

const LF = 0x0a;
const CR = 0x0d;

/** Quoting that breaks the file's records: refused at upload. */
export class MalformedCsv extends Error {
  override name = "MalformedCsv";
  constructor(
    /** The line (1-based) the stray or open quote is on. */
    readonly line: number,
    readonly kind: "stray_quote" | "unclosed_quote",
  ) {
    super(
      kind === "stray_quote"
        ? `Line ${line.toLocaleString("en-US")} has a quote (") in the ` +
          "middle of a quoted cell: a quote inside a quoted cell is " +
          'written twice (""), and a quoted cell ends right before the ' +
          "delimiter or the line end. Fix the quoting of that line."
        : `A quote (") opened on line ${line.toLocaleString("en-US")} ` +
          "never closes, so the rest of the file would read as one cell. " +
          "Close the quote.",
    );
  }
}

/**
 * Called for each record that is not an empty line: its bytes are
 * buf[start, contentEnd), its line end buf[contentEnd, end) (empty for a
 * last line without one); its cells are the scanner's until the next call.
 */
export type OnRecord = (
  buf: Uint8Array,
  start: number,
  contentEnd: number,
  end: number,
) => void;

const decoder = new TextDecoder();

/** Bytes [start, end) as text. */
function text(buf: Uint8Array, start: number, end: number): string {
  return shortAscii(buf, start, end) ??
    decoder.decode(buf.subarray(start, end));
}

export class LineScanner {
  readonly #delimiter: number;
  /** The quote byte, or -1 (no quoting: tab-separated text). */
  readonly #quote: number;
  readonly #quoteText: string;
  /** Whether a lone CR ends a line (files with CR line ends). */
  readonly #crEnds: boolean;
  #starts = new Int32Array(64);
  #ends = new Int32Array(64);
  #buf: Uint8Array = new Uint8Array(0);
  /** Cells of the last record. */
  fields = 0;
  /** The line (1-based) the next record starts on. */
  line = 1;

  constructor(dialect: Pick<Dialect, "delimiter" | "quote" | "newline">) {
    this.#delimiter = dialect.delimiter.charCodeAt(0);
    this.#quote = dialect.quote ? dialect.quote.charCodeAt(0) : -1;
    this.#quoteText = dialect.quote;
    this.#crEnds = dialect.newline === "\r";
  }

  #field(start: number, end: number): void {
    if (this.fields === this.#starts.length) {
      this.#starts = resized(this.#starts, this.fields * 2);
      this.#ends = resized(this.#ends, this.fields * 2);
    }
    this.#starts[this.fields] = start;
    this.#ends[this.fields++] = end;
  }

  /**
   * Scans buf from `from`: calls onRecord for each whole record, and
   * returns where the first record not yet whole starts (buf.length when
   * none). With `final` the end of buf ends the last record. Throws
   * MalformedCsv.
   */
  scan(
    buf: Uint8Array,
    from: number,
    final: boolean,
    onRecord: OnRecord,
  ): number {
    this.#buf = buf;
    const n = buf.length;
    const d = this.#delimiter;
    const q = this.#quote;
    const crEnds = this.#crEnds;
    let i = from;
    while (i < n) {
      const start = i;
      let inner = 0; // line ends inside quoted cells
      this.fields = 0;
      let contentEnd = -1;
      let end = -1;
      for (;;) {
        const fieldStart = i;
        if (i < n && buf[i] === q) {
          const opened = this.line + inner;
          i++;
          for (;;) {
            if (i >= n) {
              if (!final) return start;
              throw new MalformedCsv(opened, "unclosed_quote");
            }
            const b = buf[i];
            if (b === q) {
              if (i + 1 < n && buf[i + 1] === q) {
                i += 2;
                continue;
              }
              if (i + 1 >= n && !final) return start;
              i++;
              break;
            }
            if (b === LF || (b === CR && (crEnds || buf[i + 1] !== LF))) {
              inner++;
            }
            i++;
          }
          if (i >= n) {
            this.#field(fieldStart, i);
            contentEnd = end = n;
            break;
          }
          const b = buf[i];
          if (b === d) {
            this.#field(fieldStart, i);
            i++;
            continue;
          }
          if (b === LF || (b === CR && crEnds)) {
            this.#field(fieldStart, i);
            contentEnd = i;
            end = i + 1;
            break;
          }
          if (b === CR) {
            if (i + 1 >= n && !final) return start;
            if (i + 1 >= n || buf[i + 1] === LF) {
              this.#field(fieldStart, i);
              contentEnd = i;
              end = Math.min(i + 2, n);
              break;
            }
          }
          throw new MalformedCsv(this.line + inner, "stray_quote");
        }
        while (i < n) {
          const b = buf[i];
          if (b === d || b === LF || (b === CR && crEnds)) break;
          i++;
        }
        if (i >= n) {
          if (!final) return start;
          this.#field(fieldStart, n);
          contentEnd = end = n;
          break;
        }
        if (buf[i] === d) {
          this.#field(fieldStart, i);
          i++;
          continue;
        }
        // A line end; CR before LF is part of it.
        contentEnd = !crEnds && i > fieldStart && buf[i - 1] === CR ? i - 1 : i;
        this.#field(fieldStart, contentEnd);
        end = i + 1;
        break;
      }
      if (contentEnd > start) onRecord(buf, start, contentEnd, end);
      this.line += inner + (end > contentEnd ? 1 : 0);
      i = end;
    }
    return n;
  }

  /** Cell k of the last record, unquoted and decoded ("" past its end). */
  cell(k: number): string {
    if (k >= this.fields) return "";
    const buf = this.#buf;
    const start = this.#starts[k];
    const end = this.#ends[k];
    if (this.#quote >= 0 && buf[start] === this.#quote && end > start) {
      const inner = text(buf, start + 1, end - 1);
      return inner.includes(this.#quoteText)
        ? inner.replaceAll(this.#quoteText + this.#quoteText, this.#quoteText)
        : inner;
    }
    return text(buf, start, end);
  }

  /**
   * `read` of cell k's bytes within its quotes, as stored (cell() decodes
   * and unescapes them), or of no bytes past the record's end.
   */
  cellBytes<T>(
    k: number,
    read: (buf: Uint8Array, start: number, end: number) => T,
  ): T {
    if (k >= this.fields) return read(this.#buf, 0, 0);
    const buf = this.#buf;
    const start = this.#starts[k];
    const end = this.#ends[k];
    return this.#quote >= 0 && buf[start] === this.#quote && end > start
      ? read(buf, start + 1, end - 1)
      : read(buf, start, end);
  }

  /** Every cell of the last record. */
  cells(): string[] {
    const cells: string[] = [];
    for (let k = 0; k < this.fields; k++) cells.push(this.cell(k));
    return cells;
  }
}
