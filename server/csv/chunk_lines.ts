// The lines of one chunk of a stored upload (bytes cut at record ends by the
// upload's reader), read with the upload's dialect by the same scanner that
// cut them: each line's bytes as stored, and the one cell a job looks up
// (the others stay bytes until a page shows them).
import { dottedQuadAt } from "../enrichment/ip_input.ts";
import { readInto } from "../read_into.ts";
import { resized } from "../typed_arrays.ts";
import type { Dialect } from "./dialect.ts";
import { LineScanner } from "./line_scanner.ts";

/**
 * A record of the upload as stored: bytes [start, contentEnd) of `buf`,
 * then its line end as stored, to `end` (none for a last line without
 * one). Offsets, not views: no array object per row.
 */
export interface SourceLine {
  buf: Uint8Array;
  start: number;
  contentEnd: number;
  end: number;
  /** How many cells it has. */
  fields: number;
}

/**
 * A batch of a chunk's records as columns, no object per record: record i
 * is bytes [start[i], contentEnd[i]) of `buf`, its line end to end[i], with
 * fields[i] cells. Its cell of the column asked for is `v4[i]` when that is
 * an IPv4 address written as parseIp writes it (most cells: the text is
 * made only when needed, by ipv4Text), else -1 and the cell is `cells[i]`.
 */
export class ChunkLines {
  count = 0;
  start = new Int32Array(1024);
  contentEnd = new Int32Array(1024);
  end = new Int32Array(1024);
  fields = new Int32Array(1024);
  v4 = new Float64Array(1024);
  readonly cells: string[] = [];

  constructor(readonly buf: Uint8Array) {}

  /** Room for one more record; its index. */
  next(): number {
    const n = this.start.length;
    if (this.count === n) {
      this.start = resized(this.start, n * 2);
      this.contentEnd = resized(this.contentEnd, n * 2);
      this.end = resized(this.end, n * 2);
      this.fields = resized(this.fields, n * 2);
      this.v4 = resized(this.v4, n * 2);
    }
    return this.count++;
  }
}

/** Bytes scanned between two batches of records. */
const SLICE_BYTES = 65536;

/** The bytes [start, end) of a file. */
async function readRange(
  path: string,
  { start, end }: { start: number; end: number },
): Promise<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    await file.seek(start, Deno.SeekMode.Start);
    return await readInto(file, new Uint8Array(end - start));
  } finally {
    file.close();
  }
}

/**
 * The records of bytes [start, end) of a stored upload with their cell of
 * `column`, in batches (from byte 0: the header line first), all of one
 * buffer; a batch is valid until the next is asked for.
 */
export async function* readChunkLines(
  path: string,
  dialect: Dialect,
  range: { start: number; end: number },
  column: number,
): AsyncGenerator<ChunkLines> {
  const buf = await readRange(path, range);
  const scanner = new LineScanner(dialect);
  // One batch, refilled: a batch is read before the next is asked for.
  const batch = new ChunkLines(buf);
  const onRecord = (
    _buf: Uint8Array,
    start: number,
    contentEnd: number,
    end: number,
  ) => {
    const i = batch.next();
    batch.start[i] = start;
    batch.contentEnd[i] = contentEnd;
    batch.end[i] = end;
    batch.fields[i] = scanner.fields;
    const v4 = scanner.cellBytes(column, dottedQuadAt);
    batch.v4[i] = v4;
    batch.cells[i] = v4 >= 0 ? "" : scanner.cell(column);
  };
  // A slice at a time (a record cut by a slice's end is read with the
  // next), so rows go on to be looked up as they are read.
  let from = 0;
  for (let to = SLICE_BYTES;; to += SLICE_BYTES) {
    const last = to >= buf.length;
    from = scanner.scan(last ? buf : buf.subarray(0, to), from, last, onRecord);
    if (batch.count > 0) {
      yield batch;
      batch.count = 0;
    }
    if (last) return;
  }
}
