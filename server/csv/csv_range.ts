// Reads the rows of one chunk of a CSV upload (bytes cut at row ends by the
// upload's reader, row_chunks.ts) as readCsvBatches reads the whole file:
// the same delimiter, and the line end papaparse takes for the whole file
// rather than one guessed from the chunk's own first piece.
import { createChunkParser, decodeText, type Newline } from "./csv_rows.ts";

const READ_BYTES = 1 << 16;

/**
 * The line end papaparse takes for the whole file: guessed from the first
 * piece of text, which is readCsvBatches' first read.
 */
async function fileNewline(
  path: string,
  delimiter: string,
): Promise<Newline | undefined> {
  const file = await Deno.open(path, { read: true });
  const reader = decodeText(file.readable).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      if (value) {
        const parser = createChunkParser(delimiter);
        parser.push(value);
        return parser.newline;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The rows of bytes [start, end) of a CSV file, in batches (from byte 0:
 * the header row first).
 */
export async function* readCsvRange(
  path: string,
  delimiter: string,
  range: { start: number; end: number },
): AsyncGenerator<string[][]> {
  const parser = createChunkParser(
    delimiter,
    await fileNewline(path, delimiter),
  );
  // A byte order mark inside the file is a character of a row, as it is
  // for the whole file's decoder (which drops only the file's first).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: range.start > 0 });
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
