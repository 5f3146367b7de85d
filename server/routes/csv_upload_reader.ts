// Reads an uploaded CSV as it streams in and stores it as it came (UTF-16
// is stored as UTF-8; a byte order mark is noted, not stored). On the way it
// finds the file's dialect once (csv/dialect.ts), the header row, the number
// of data rows and the widest row, and where the stored file is cut into a
// job's chunks, all with the scanner the jobs read the file with
// (csv/line_scanner.ts); it refuses malformed quoting and a row over
// MAX_ROW_BYTES, naming the line.
import { type Dialect, encodeHeader, sniffDialect } from "../csv/dialect.ts";
import { LineScanner, MalformedCsv } from "../csv/line_scanner.ts";
import { MAX_CUTS, type RowChunk, RowChunker } from "../csv/row_chunks.ts";
import { UploadFormatError } from "../upload_formats/limits.ts";
import { rowTooLong, startingOnLine } from "../upload_formats/row_limit.ts";

/** The dialect is found from this many bytes, then fixed. */
const DIALECT_SAMPLE_BYTES = 65536;
/** Data rows kept for the configuration step's preview. */
export const SAMPLE_ROWS = 5;

/** The text encoding a byte order mark announces; UTF-8 otherwise. */
function encodingOf(start: Uint8Array): string {
  if (start[0] === 0xff && start[1] === 0xfe) return "utf-16le";
  if (start[0] === 0xfe && start[1] === 0xff) return "utf-16be";
  return "utf-8";
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Rows wider than the header row keep their extra cells: the header gains
 * names for them ("column_4", ...) so the download loses nothing.
 */
export function withExtraColumns(headers: string[], width: number): string[] {
  const names = [...headers];
  for (let i = headers.length; i < width; i++) names.push(`column_${i + 1}`);
  return names;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

export interface CountedCsv {
  size: number;
  /** The first row as it was in the file (empty when there was none). */
  headerRow: string[];
  /** The header row, widened to the widest data row. */
  headers: string[];
  rowCount: number;
  dialect: Dialect;
  /** The first data rows (SAMPLE_ROWS at most), as parsed. */
  sampleRows: string[][];
  /** The stored file's chunks of about `chunkRows` data rows. */
  chunks: RowChunk[];
}

export class CsvUploadReader {
  #size = 0;
  /** Bytes stored so far. */
  #stored = 0;
  #rowCount = 0;
  #headers: string[] | null = null;
  #widestRow = 0;
  #sampleRows: string[][] = [];
  /** The first bytes, until they say the encoding (UTF-16, a BOM). */
  #head: Uint8Array | null = new Uint8Array(0);
  #utf16: TextDecoder | null = null;
  #bom = false;
  #dialect: Dialect | null = null;
  #scanner: LineScanner | null = null;
  /** Bytes before the dialect is known, or of a record not yet whole. */
  #carry: Uint8Array = new Uint8Array(0);
  readonly #encoder = new TextEncoder();
  readonly #chunker: RowChunker;

  /**
   * @param store receives the bytes to write to the file.
   * @param fixed what the upload's format fixes of the dialect.
   * @param chunkRows data rows per chunk of the job (CUT_ROWS).
   * @param maxRowBytes MAX_ROW_BYTES: a longer row is refused.
   */
  constructor(
    private readonly store: (bytes: Uint8Array) => void,
    private readonly fixed: Partial<Pick<Dialect, "delimiter" | "quote">> = {},
    chunkRows = Infinity,
    private readonly maxRowBytes = Infinity,
  ) {
    this.#chunker = new RowChunker(chunkRows, MAX_CUTS);
  }

  /** One chunk of the upload as it arrived. */
  push(chunk: Uint8Array): void {
    this.#size += chunk.length;
    if (this.#head) {
      this.#head = concat(this.#head, chunk);
      if (this.#head.length >= UTF8_BOM.length) this.#start();
      return;
    }
    this.#decoded(chunk);
  }

  /** The upload has ended: counts the last row. */
  end(): CountedCsv {
    if (this.#head) this.#start();
    if (this.#utf16) this.#bytes(this.#encoder.encode(this.#utf16.decode()));
    if (!this.#dialect) this.#sniff(true);
    this.#scan(true);
    const dialect = this.#dialect!;
    return {
      chunks: this.#chunker.end(this.#stored, this.#rowCount),
      size: this.#size,
      headerRow: this.#headers ?? [],
      headers: withExtraColumns(this.#headers ?? [], this.#widestRow),
      rowCount: this.#rowCount,
      dialect,
      sampleRows: this.#sampleRows,
    };
  }

  /** The encoding and byte order mark from the first bytes. */
  #start(): void {
    const head = this.#head!;
    this.#head = null;
    const encoding = encodingOf(head);
    if (encoding !== "utf-8") {
      this.#bom = true;
      this.#utf16 = new TextDecoder(encoding);
    } else if (UTF8_BOM.every((byte, i) => head[i] === byte)) {
      this.#bom = true;
      this.#decoded(head.subarray(UTF8_BOM.length));
      return;
    }
    this.#decoded(head);
  }

  #decoded(chunk: Uint8Array): void {
    this.#bytes(
      this.#utf16
        ? this.#encoder.encode(this.#utf16.decode(chunk, { stream: true }))
        : chunk,
    );
  }

  /** Bytes of the file as stored. */
  #bytes(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.store(bytes);
    this.#stored += bytes.length;
    this.#carry = concat(this.#carry, bytes);
    if (this.#dialect) this.#scan(false);
    else if (this.#carry.length >= DIALECT_SAMPLE_BYTES) this.#sniff(false);
  }

  #sniff(whole: boolean): void {
    this.#dialect = sniffDialect(this.#carry, whole, this.#bom, this.fixed);
    this.#scanner = new LineScanner(this.#dialect);
    if (!whole) this.#scan(false);
  }

  /** Counts the whole records of what is carried. */
  #scan(final: boolean): void {
    const buf = this.#carry;
    const base = this.#stored - buf.length;
    const scanner = this.#scanner!;
    let rest: number;
    try {
      rest = scanner.scan(buf, 0, final, (buf, start, contentEnd, end) => {
        if (contentEnd - start > this.maxRowBytes) {
          throw rowTooLong(startingOnLine(scanner.line), this.maxRowBytes);
        }
        this.#record(buf, start, contentEnd, base + end);
      });
    } catch (error) {
      if (error instanceof MalformedCsv) {
        throw new UploadFormatError(error.message);
      }
      throw error;
    }
    // A copy: the record not yet whole, not the whole buffer, is kept.
    this.#carry = rest < buf.length ? buf.slice(rest) : new Uint8Array(0);
    if (this.#carry.length > this.maxRowBytes) {
      throw rowTooLong(startingOnLine(scanner.line), this.maxRowBytes);
    }
  }

  #record(buf: Uint8Array, start: number, contentEnd: number, end: number) {
    const scanner = this.#scanner!;
    if (this.#headers === null) {
      this.#headers = scanner.cells();
      this.#dialect!.header = encodeHeader(buf.subarray(start, contentEnd));
      this.#dialect!.headerCells = scanner.fields;
    } else {
      this.#rowCount++;
      if (this.#sampleRows.length < SAMPLE_ROWS) {
        this.#sampleRows.push(scanner.cells());
      }
      if (scanner.fields > this.#widestRow) this.#widestRow = scanner.fields;
    }
    this.#chunker.rowsThrough(end, this.#rowCount);
  }
}

/**
 * A stored upload counted again as at its upload (an upload stored before
 * its dialect and cuts were noted with it).
 */
export async function countStoredCsv(
  path: string,
  chunkRows: number,
): Promise<CountedCsv> {
  const reader = new CsvUploadReader(() => {}, {}, chunkRows);
  const file = await Deno.open(path, { read: true });
  for await (const bytes of file.readable) reader.push(bytes);
  return reader.end();
}
