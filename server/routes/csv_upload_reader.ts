// Reads an uploaded CSV as it streams in: decodes it (UTF-8, or UTF-16 by
// its byte order mark) into the UTF-8 text that is stored, and on the way
// finds the delimiter, the header row, the number of data rows and the
// widest row, and where the stored file is cut into a job's chunks; it
// refuses a row over MAX_ROW_BYTES. The job later reads the stored file
// exactly as counted here.
import {
  type ChunkParser,
  createChunkParser,
  detectDelimiter,
} from "../csv/csv_rows.ts";
import { MAX_CUTS, type RowChunk, RowChunker } from "../csv/row_chunks.ts";
import { RowLimit } from "../upload_formats/row_limit.ts";

/** The delimiter is guessed from this much text, then fixed. */
const DELIMITER_SAMPLE_CHARS = 65536;
// Characters parsed at a time (some 60 short rows): a cut falls at the end
// of a slice.
const PARSE_SLICE = 4096;
/** Data rows kept for the configuration step's preview. */
export const SAMPLE_ROWS = 5;

/** The text encoding a byte order mark announces; UTF-8 otherwise. */
function encodingOf(start: Uint8Array): string {
  if (start[0] === 0xff && start[1] === 0xfe) return "utf-16le";
  if (start[0] === 0xfe && start[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/**
 * Rows wider than the header row keep their extra cells: the header gains
 * names for them ("column_4", ...) so the download loses nothing.
 */
export function withExtraColumns(headers: string[], width: number): string[] {
  const names = [...headers];
  for (let i = headers.length; i < width; i++) names.push(`column_${i + 1}`);
  return names;
}

export interface CountedCsv {
  size: number;
  /** The first row as it was in the file (empty when there was none). */
  headerRow: string[];
  /** The header row, widened to the widest data row. */
  headers: string[];
  rowCount: number;
  delimiter: string;
  /** The first data rows (SAMPLE_ROWS at most), as parsed. */
  sampleRows: string[][];
  /** The stored file's chunks of about `chunkRows` data rows. */
  chunks: RowChunk[];
}

export class CsvUploadReader {
  #size = 0;
  #rowCount = 0;
  #headers: string[] | null = null;
  #widestRow = 0;
  #sampleRows: string[][] = [];
  #delimiter = ",";
  #rows: ChunkParser | null = null;
  #sample = "";
  #decoder: TextDecoder | null = null;
  readonly #encoder = new TextEncoder();
  readonly #chunker: RowChunker;
  readonly #rowLimit: RowLimit | null;

  /**
   * @param store receives the UTF-8 bytes to write to the file.
   * @param delimiter the separator when the format fixes it; else guessed.
   * @param chunkRows data rows per chunk of the job (CHUNK_ROWS).
   * @param maxRowBytes MAX_ROW_BYTES: a longer row is refused.
   */
  constructor(
    private readonly store: (bytes: Uint8Array) => void,
    private readonly delimiter?: string,
    chunkRows = Infinity,
    maxRowBytes = Infinity,
  ) {
    this.#chunker = new RowChunker(chunkRows, MAX_CUTS);
    this.#rowLimit = Number.isFinite(maxRowBytes)
      ? new RowLimit(maxRowBytes)
      : null;
  }

  /** One chunk of the upload as it arrived. */
  push(chunk: Uint8Array): void {
    this.#size += chunk.length;
    this.#decoder ??= new TextDecoder(encodingOf(chunk));
    this.#text(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The upload has ended: counts the last row. */
  end(): CountedCsv {
    this.#text(this.#decoder?.decode() ?? "");
    if (!this.#rows) this.#startRows();
    this.#count(this.#rows!.end());
    return {
      chunks: this.#chunker.end(this.#rowCount),
      size: this.#size,
      headerRow: this.#headers ?? [],
      headers: withExtraColumns(this.#headers ?? [], this.#widestRow),
      rowCount: this.#rowCount,
      delimiter: this.#delimiter,
      sampleRows: this.#sampleRows,
    };
  }

  #text(text: string): void {
    if (!text) return;
    const bytes = this.#encoder.encode(text);
    this.store(bytes);
    this.#chunker.text(text, bytes.length);
    if (this.#rows) this.#parse(text);
    else {
      this.#sample += text;
      if (this.#sample.length >= DELIMITER_SAMPLE_CHARS) this.#startRows();
    }
  }

  #startRows(): void {
    this.#delimiter = this.delimiter ?? detectDelimiter(this.#sample);
    this.#rows = createChunkParser(this.#delimiter);
    this.#parse(this.#sample);
    this.#sample = "";
  }

  #parse(text: string): void {
    // In slices: a cut can fall only where a parse ends, and a job's
    // chunks are runs of cuts about CUT_ROWS apart.
    for (let at = 0; at < text.length; at += PARSE_SLICE) {
      const slice = text.slice(at, at + PARSE_SLICE);
      const rows = this.#rows!.push(slice);
      this.#rowLimit?.check(slice, rows, this.#rows!);
      this.#count(rows);
    }
  }

  #count(parsed: string[][]): void {
    for (const row of parsed) {
      if (this.#headers === null) this.#headers = row;
      else {
        this.#rowCount++;
        if (this.#sampleRows.length < SAMPLE_ROWS) this.#sampleRows.push(row);
        if (row.length > this.#widestRow) this.#widestRow = row.length;
      }
    }
    this.#chunker.rowsThrough(this.#rows!.cursor, this.#rowCount);
  }
}

/**
 * The chunks of a stored upload, counted again as at its upload (for an
 * upload stored before its chunks were noted with it).
 */
export async function chunksOfStoredCsv(
  path: string,
  delimiter: string,
  chunkRows: number,
): Promise<RowChunk[]> {
  const reader = new CsvUploadReader(() => {}, delimiter, chunkRows);
  const file = await Deno.open(path, { read: true });
  for await (const bytes of file.readable) reader.push(bytes);
  return reader.end().chunks;
}
