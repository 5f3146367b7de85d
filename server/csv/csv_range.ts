// Reads the rows of one byte range of a CSV upload (a chunk of a job, cut at
// row starts by row_starts.ts) as readCsvBatches reads the whole file: the
// same delimiter, and the line end papaparse guessed for the whole file
// rather than one guessed from the range's own first piece.
import { createChunkParser } from "./csv_rows.ts";
import { fileNewline } from "./row_starts.ts";

const READ_BYTES = 1 << 16;

/** The rows of bytes [start, end) of a CSV file, in batches. */
export async function* readCsvRange(
  path: string,
  delimiter: string,
  range: { start: number; end: number },
): AsyncGenerator<string[][]> {
  const parser = createChunkParser(delimiter, await fileNewline(path));
  // A byte order mark inside the file is a character of a row, as it is
  // for the whole file's decoder (which drops only the file's first).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const file = await Deno.open(path, { read: true });
  try {
    await file.seek(range.start, Deno.SeekMode.Start);
    const buffer = new Uint8Array(READ_BYTES);
    let left = range.end - range.start;
    while (left > 0) {
      const count = await file.read(
        left < buffer.length ? buffer.subarray(0, left) : buffer,
      );
      if (count === null) break;
      left -= count;
      const text = decoder.decode(buffer.subarray(0, count), { stream: true });
      const rows = parser.push(text);
      if (rows.length > 0) yield rows;
    }
    const rows = parser.push(decoder.decode());
    const last = parser.end();
    const tail = rows.length === 0 ? last : rows.concat(last);
    if (tail.length > 0) yield tail;
  } finally {
    file.close();
  }
}
