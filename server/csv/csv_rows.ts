// Streaming CSV reading and writing (papaparse: the fastest streaming parser
// we measured). The same reader counts rows at upload and feeds jobs, so both
// see the same rows: empty lines are skipped, ragged rows are kept as they are.
import { EventEmitter } from "node:events";
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

/**
 * Every row of a CSV file, header first, streamed in batches (one per chunk
 * of the file). papaparse's chunk mode hands over a chunk's rows at once:
 * its row-at-a-time stream mode pauses and re-parses the rest of the chunk
 * every few rows, and was most of a job's time.
 */
export async function* readCsvBatches(
  path: string,
  delimiter: string,
): AsyncGenerator<string[][]> {
  const file = await Deno.open(path, { read: true });
  const reader = decodeText(file.readable).getReader();
  const parser = createChunkParser(delimiter);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const rows = done ? parser.end() : parser.push(value);
      if (rows.length > 0) yield rows;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Every row of a CSV file, header first, streamed. */
export async function* readCsvFile(
  path: string,
  delimiter: string,
): AsyncGenerator<string[]> {
  for await (const batch of readCsvBatches(path, delimiter)) yield* batch;
}

// Enrichment values that a spreadsheet would run as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes a quote to a cell a spreadsheet would read as a formula. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

// What makes papaparse's unparse quote a field (with "," as delimiter): a
// quote, the delimiter, CR, LF or a byte order mark anywhere, or a space at
// either end.
const NEEDS_QUOTES = /[",\r\n\ufeff]|^ | $/;

/** One CSV field, quoted and escaped exactly as Papa.unparse does. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * CSV text of rows (RFC 4180: quoted where needed, CRLF line ends), the same
 * text as Papa.unparse with a trailing CRLF, written without its per-field
 * regular expressions.
 */
export function formatCsvRows(rows: (string | number | null)[][]): string {
  if (rows.length === 0) return "";
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += ",";
      text += csvField(row[i]);
    }
    text += "\r\n";
  }
  return text;
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

export type Newline = "\n" | "\r\n" | "\r";

export interface ChunkParser {
  /** Parses a chunk of text; returns the rows it completed. */
  push(text: string): string[][];
  /** Ends the input; returns the last rows. */
  end(): string[][];
  /** Characters of the input through the end of the last row returned. */
  readonly cursor: number;
  /** The line end in use: given, or guessed from the first chunk. */
  readonly newline: Newline | undefined;
}

/**
 * A push-fed parser in papaparse's chunk mode, for text that arrives in
 * pieces (an upload): rows split across chunks come out whole. Without
 * `newline`, papaparse guesses the line end from the first piece.
 */
export function createChunkParser(
  delimiter: string,
  newline?: Newline,
): ChunkParser {
  const source = Object.assign(new EventEmitter(), {
    readable: true,
    read() {},
    pause() {},
    resume() {},
  });
  let rows: string[][] = [];
  let cursor = 0;
  let guessed = newline;
  // The typings know no Readable-like input; papaparse accepts one.
  const parse = Papa.parse as unknown as (
    input: unknown,
    config: Papa.ParseConfig<string[]> & {
      chunk(results: Papa.ParseResult<string[]>): void;
    },
  ) => void;
  parse(source, {
    delimiter,
    ...(newline ? { newline } : {}),
    skipEmptyLines: true,
    chunk: (results: Papa.ParseResult<string[]>) => {
      rows = rows.length === 0 ? results.data : rows.concat(results.data);
      cursor = results.meta.cursor;
      guessed = results.meta.linebreak as Newline;
    },
  });
  const take = () => {
    const done = rows;
    rows = [];
    return done;
  };
  return {
    push(text) {
      if (text) source.emit("data", text);
      return take();
    },
    end() {
      source.emit("end");
      return take();
    },
    get cursor() {
      return cursor;
    },
    get newline() {
      return guessed;
    },
  };
}
