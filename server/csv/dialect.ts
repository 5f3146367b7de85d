// How an upload writes its table, found once when it is uploaded and kept
// with it (the uploads and jobs rows): its delimiter, quote, line end,
// whether it began with a byte order mark, and its header line as stored. A
// chunk reads its lines with it and never guesses again; the download keeps
// each line as stored and writes the new cells the same way.
import { Buffer } from "node:buffer";
import { LineScanner, MalformedCsv } from "./line_scanner.ts";

export type Newline = "\n" | "\r\n" | "\r";

export interface Dialect {
  /** One ASCII character: `,`, `;`, tab or `|`. */
  delimiter: string;
  /** `"`, or "" for text with no quoting (tab-separated files). */
  quote: string;
  /** The line end of the file's first line (the header's). */
  newline: Newline;
  /** The upload began with a byte order mark (the download does too). */
  bom: boolean;
  /** The header line's bytes as stored, without its line end (base64). */
  header: string;
  /** Cells of the header line. */
  headerCells: number;
}

export const DELIMITERS = [",", ";", "\t", "|"];
/** Records the delimiter is guessed from. */
const GUESS_RECORDS = 20;

/**
 * The line end of the first line outside quoted cells ("\r\n" when none).
 * A quote opens a quoted cell only at a cell's start (after a delimiter of
 * any kind, or a line's start); inside one, a doubled quote is a quote.
 */
function sniffNewline(sample: Uint8Array, quote: string): Newline {
  const q = quote ? quote.charCodeAt(0) : -1;
  const starts = new Set(DELIMITERS.map((d) => d.charCodeAt(0)));
  let quoted = false;
  let cellStart = true;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i];
    if (quoted) {
      if (b !== q) continue;
      if (sample[i + 1] === q) i++;
      else quoted = false;
    } else if (b === q && cellStart) quoted = true;
    else if (b === 0x0a) return "\n";
    else if (b === 0x0d) {
      if (i + 1 >= sample.length) break;
      return sample[i + 1] === 0x0a ? "\r\n" : "\r";
    }
    cellStart = !quoted && starts.has(b);
  }
  return "\r\n";
}

/**
 * The delimiter whose first records have the most even number of cells (at
 * least two each on average), as spreadsheet programs and papaparse guess
 * it; "," when none has.
 */
function sniffDelimiter(
  sample: Uint8Array,
  whole: boolean,
  quote: string,
  newline: Newline,
): string {
  let best = ",";
  let bestDelta = Infinity;
  let bestAverage = 0;
  for (const delimiter of DELIMITERS) {
    const scanner = new LineScanner({ delimiter, quote, newline });
    const counts: number[] = [];
    try {
      scanner.scan(sample, 0, whole, () => {
        if (counts.length < GUESS_RECORDS) counts.push(scanner.fields);
      });
    } catch (error) {
      if (error instanceof MalformedCsv) continue;
      throw error;
    }
    if (counts.length === 0) continue;
    let delta = 0;
    for (let k = 1; k < counts.length; k++) {
      delta += Math.abs(counts[k] - counts[k - 1]);
    }
    const average = counts.reduce((a, b) => a + b, 0) / counts.length;
    if (average < 2) continue;
    if (delta < bestDelta || (delta === bestDelta && average > bestAverage)) {
      [best, bestDelta, bestAverage] = [delimiter, delta, average];
    }
  }
  return best;
}

/**
 * The dialect of a file from its first bytes (the byte order mark already
 * taken off): `whole` when the sample is the whole file; `fixed` what the
 * upload's format says (tab-separated text has no quoting). The header
 * line is filled in once it is read.
 */
export function sniffDialect(
  sample: Uint8Array,
  whole: boolean,
  bom: boolean,
  fixed: Partial<Pick<Dialect, "delimiter" | "quote">> = {},
): Dialect {
  const quote = fixed.quote ?? '"';
  const newline = sniffNewline(sample, quote);
  const delimiter = fixed.delimiter ??
    sniffDelimiter(sample, whole, quote, newline);
  return { delimiter, quote, newline, bom, header: "", headerCells: 0 };
}

export function headerBytes(dialect: Dialect): Uint8Array {
  return new Uint8Array(Buffer.from(dialect.header, "base64"));
}

export function encodeHeader(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/**
 * A value as a cell of the dialect: quoted only when it holds the
 * delimiter, the quote or a line end; with no quoting those become spaces.
 */
export function encodeField(value: string, dialect: Dialect): string {
  const { delimiter, quote } = dialect;
  let needs = value.includes(delimiter) || value.includes("\n") ||
    value.includes("\r");
  if (!quote) {
    return needs
      ? value.replace(/[\r\n]/g, " ").replaceAll(delimiter, " ")
      : value;
  }
  needs ||= value.includes(quote);
  return needs
    ? `${quote}${value.replaceAll(quote, quote + quote)}${quote}`
    : value;
}

/**
 * Per ASCII code, 1 where encodeField leaves the character as it is (not
 * the delimiter, the quote or a line end): a cell of those only is itself.
 */
export function plainCodes(
  dialect: Pick<Dialect, "delimiter" | "quote">,
): Uint8Array {
  const plain = new Uint8Array(128).fill(1);
  for (const special of [dialect.delimiter, dialect.quote, "\n", "\r"]) {
    if (special) plain[special.charCodeAt(0)] = 0;
  }
  return plain;
}

const encoder = new TextEncoder();

/** RFC 4180 as the server writes CSV it makes (.xlsx uploads' sheets). */
export const COMMA: Dialect = {
  delimiter: ",",
  quote: '"',
  newline: "\r\n",
  bom: false,
  header: "",
  headerCells: 0,
};

/** CSV lines of rows in the dialect (each with its line end). */
export function formatRows(
  rows: (string | number)[][],
  dialect = COMMA,
): string {
  let text = "";
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += dialect.delimiter;
      text += encodeField(String(row[i]), dialect);
    }
    text += dialect.newline;
  }
  return text;
}

/**
 * The dialect of a job stored before dialects were kept: its parts hold
 * comma-separated CRLF lines of its header's width, so its header is
 * written the same way.
 */
export function legacyDialect(headers: string[]): Dialect {
  const line = formatRows([headers]).slice(0, -2);
  return {
    ...COMMA,
    header: encodeHeader(encoder.encode(line)),
    headerCells: headers.length,
  };
}

/** The dialect as stored in the database (JSON), or null. */
export function parseDialect(text: unknown): Dialect | null {
  return typeof text === "string" && text !== "" ? JSON.parse(text) : null;
}

/**
 * The schema step (SQLite and PostgreSQL alike) that keeps dialects with
 * uploads and jobs. A job stored before keeps its parts, whose lines are
 * comma-separated CRLF (legacyDialect); one not finished then runs again
 * from its first row, its file's dialect found when it is queued.
 */
export const DIALECT_MIGRATION = `
  ALTER TABLE uploads ADD COLUMN dialect TEXT;
  ALTER TABLE jobs ADD COLUMN dialect TEXT;
  DELETE FROM job_chunks WHERE job_id IN
    (SELECT id FROM jobs WHERE status IN ('pending', 'processing', 'failed'));
  UPDATE jobs SET processed_ips = 0, successful_ips = 0, failed_ips = 0,
    filtered_ips = 0, hostnames_answered = 0, hostnames_no_name = 0,
    hostnames_timed_out = 0, hostnames_skipped = 0,
    registrations_answered = 0, registrations_cached = 0,
    registrations_failed = 0
    WHERE status IN ('pending', 'processing', 'failed');
`;
