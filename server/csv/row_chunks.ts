// Where an upload is cut into chunks, a job's unit of work: noted by the
// upload's reader (csv_upload_reader.ts) from its parser's position as the
// parser completes rows, so a chunk's rows are exactly the rows counted and
// no second parser has to agree with the first. A cut falls at the end of a
// parsed batch once the chunk holds `chunkRows` data rows (a chunk is about
// that size); the first chunk starts at byte 0 and holds the header row.

/**
 * Data rows between two cuts the upload notes, at least: a job's chunks are
 * runs of them (jobs/run_chunk.ts planJobChunks), so a small job is cut
 * small enough for its rows to show as it runs. A longer upload's cuts are
 * thinned to at most MAX_CUTS, each twice as far apart as before.
 */
export const CUT_ROWS = 100;
export const MAX_CUTS = 1024;

/** Data rows [firstRow, firstRow + rows) of an upload: bytes [start, end). */
export interface RowChunk {
  start: number;
  end: number;
  firstRow: number;
  rows: number;
}

/** A piece of the parser's input: its text, first character and byte. */
interface Piece {
  text: string;
  char: number;
  byte: number;
}

const encoder = new TextEncoder();

export class RowChunker {
  #chunks: RowChunk[] = [];
  /** The pieces from the parser's last position on. */
  #pieces: Piece[] = [];
  #chars = 0;
  #bytes = 0;
  #start = 0;
  #firstRow = 0;

  #spacing: number;

  /**
   * `chunkRows`: data rows per chunk, at least; past `maxChunks` chunks,
   * each two become one.
   */
  constructor(readonly chunkRows: number, readonly maxChunks = Infinity) {
    this.#spacing = chunkRows;
  }

  /** Text handed to the parser next, stored as `bytes` bytes. */
  text(text: string, bytes: number): void {
    this.#pieces.push({ text, char: this.#chars, byte: this.#bytes });
    this.#chars += text.length;
    this.#bytes += bytes;
  }

  /**
   * The parser has completed `dataRows` data rows (the header not counted),
   * the last ending at character `cursor` of its input.
   */
  rowsThrough(cursor: number, dataRows: number): void {
    // Later cuts fall at or after `cursor`: earlier pieces are not needed.
    let drop = 0;
    while (
      drop + 1 < this.#pieces.length && this.#pieces[drop + 1].char <= cursor
    ) drop++;
    if (drop > 0) this.#pieces.splice(0, drop);
    if (dataRows - this.#firstRow < this.#spacing) return;
    const end = this.#byteAt(cursor);
    this.#chunks.push({
      start: this.#start,
      end,
      firstRow: this.#firstRow,
      rows: dataRows - this.#firstRow,
    });
    this.#start = end;
    this.#firstRow = dataRows;
    if (this.#chunks.length > this.maxChunks) this.#thin();
  }

  /** Every two chunks as one, and twice the rows between cuts from now on. */
  #thin(): void {
    const chunks = this.#chunks;
    const thinned: RowChunk[] = [];
    for (let i = 0; i < chunks.length; i += 2) {
      const [a, b] = [chunks[i], chunks[i + 1]];
      thinned.push(b ? { ...a, end: b.end, rows: a.rows + b.rows } : a);
    }
    this.#chunks = thinned;
    this.#spacing *= 2;
  }

  /** The chunks, once every row is counted (at least one chunk). */
  end(dataRows: number): RowChunk[] {
    const last = this.#chunks.at(-1);
    if (last && dataRows === this.#firstRow) {
      // What follows the last row (empty lines) goes with it.
      last.end = this.#bytes;
    } else {
      this.#chunks.push({
        start: this.#start,
        end: this.#bytes,
        firstRow: this.#firstRow,
        rows: dataRows - this.#firstRow,
      });
    }
    return this.#chunks;
  }

  /** The byte offset of character `char` of the input (a row's end). */
  #byteAt(char: number): number {
    const piece = this.#pieces[0];
    return piece.byte +
      encoder.encode(piece.text.slice(0, char - piece.char)).length;
  }
}
