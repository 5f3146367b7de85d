// Where an upload is cut into chunks, a job's unit of work: noted by the
// upload's reader (csv_upload_reader.ts) at the end of a record, in bytes of
// the stored file, so a chunk's rows are exactly the rows counted. The first
// chunk starts at byte 0 and holds the header line.

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

export class RowChunker {
  #chunks: RowChunk[] = [];
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

  /** `dataRows` data rows (the header not counted) end at byte `end`. */
  rowsThrough(end: number, dataRows: number): void {
    if (dataRows - this.#firstRow < this.#spacing) return;
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

  /** The chunks of a file of `bytes` bytes and `dataRows` rows (one at least). */
  end(bytes: number, dataRows: number): RowChunk[] {
    const last = this.#chunks.at(-1);
    if (last && dataRows === this.#firstRow) {
      // What follows the last row (empty lines) goes with it.
      last.end = bytes;
    } else {
      this.#chunks.push({
        start: this.#start,
        end: bytes,
        firstRow: this.#firstRow,
        rows: dataRows - this.#firstRow,
      });
    }
    return this.#chunks;
  }
}
