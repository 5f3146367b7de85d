// The lines of one chunk of a stored upload (bytes cut at record ends by the
// upload's reader), read with the upload's dialect by the same scanner that
// cut them: each line's bytes as stored, and the one cell a job looks up
// (the others stay bytes until a page shows them).
import { readInto } from "../read_into.ts";
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

export interface ChunkRecord extends SourceLine {
  /** The cell of the column asked for ("" when the line is shorter). */
  cell: string;
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
 * `column`, in batches (from byte 0: the header line first).
 */
export async function* readChunkLines(
  path: string,
  dialect: Dialect,
  range: { start: number; end: number },
  column: number,
): AsyncGenerator<ChunkRecord[]> {
  const buf = await readRange(path, range);
  const scanner = new LineScanner(dialect);
  let batch: ChunkRecord[] = [];
  const onRecord = (
    buf: Uint8Array,
    start: number,
    contentEnd: number,
    end: number,
  ) =>
    batch.push({
      cell: scanner.cell(column),
      buf,
      start,
      contentEnd,
      end,
      fields: scanner.fields,
    });
  // A slice at a time (a record cut by a slice's end is read with the
  // next), so rows go on to be looked up as they are read.
  let from = 0;
  for (let to = SLICE_BYTES;; to += SLICE_BYTES) {
    const last = to >= buf.length;
    from = scanner.scan(last ? buf : buf.subarray(0, to), from, last, onRecord);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
    if (last) return;
  }
}
