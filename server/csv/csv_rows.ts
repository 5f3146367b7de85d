// Streaming CSV reading and writing (papaparse: the fastest streaming parser
// we measured). The same reader counts rows at upload and feeds jobs, so both
// see the same rows: empty lines are skipped, ragged rows are kept as they are.
import { Readable } from "node:stream";
import type { Duplex } from "node:stream";
// @ts-types="npm:@types/papaparse@^5.3"
import Papa from "papaparse";

const DELIMITERS = [",", ";", "\t", "|"];

/**
 * A writable/readable stream: write text chunks, read one string[] per row.
 * With no delimiter, papaparse detects it from the first chunk.
 */
export function createRowParser(delimiter?: string): Duplex {
  return Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter: delimiter ?? "",
    delimitersToGuess: DELIMITERS,
    skipEmptyLines: true,
  }) as unknown as Duplex;
}

/** Decodes bytes as UTF-8, dropping a byte order mark. */
export function decodeText(
  bytes: ReadableStream<Uint8Array>,
): ReadableStream<string> {
  return bytes.pipeThrough(new TextDecoderStream("utf-8"));
}

/** Every row of a CSV file, header first, streamed. */
export async function* readCsvFile(
  path: string,
  delimiter: string,
): AsyncGenerator<string[]> {
  const file = await Deno.open(path, { read: true });
  const parser = createRowParser(delimiter);
  // deno-lint-ignore no-explicit-any
  const source = Readable.fromWeb(decodeText(file.readable) as any);
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const row of parser) yield row as string[];
  } finally {
    source.destroy();
  }
}

// Enrichment values that a spreadsheet would run as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes a quote to a cell a spreadsheet would read as a formula. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** CSV text of rows (RFC 4180: quoted where needed, CRLF line ends). */
export function formatCsvRows(rows: (string | number | null)[][]): string {
  if (rows.length === 0) return "";
  return Papa.unparse(rows, { newline: "\r\n" }) + "\r\n";
}

/** The field separator of a CSV sample: comma, semicolon, tab or pipe. */
export function detectDelimiter(sample: string): string {
  // Guess from whole lines only; a cut-off last line would skew the count.
  const end = sample.lastIndexOf("\n");
  const lines = end > 0 ? sample.slice(0, end) : sample;
  const { meta } = Papa.parse(lines, {
    preview: 20,
    delimitersToGuess: DELIMITERS,
  });
  return DELIMITERS.includes(meta.delimiter) ? meta.delimiter : ",";
}
