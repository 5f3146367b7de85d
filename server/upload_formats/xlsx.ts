// .xlsx: the first worksheet as CSV rows. The workbook (at most the upload
// limit) is held in memory and read by its zip directory, so the parts the
// sheet needs (shared strings, date styles) are read first whatever their
// order in the archive, and the sheet itself streams through a SAX parser.
// Every inflated byte counts against the decompressed limit. (exceljs's
// streaming reader loses the shared strings of archives that put the sheet
// before them, as exceljs itself writes them.)
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { formatRows } from "../csv/dialect.ts";
import { tooLargeDecompressed, UploadFormatError } from "./limits.ts";
import { rowTooLong } from "./row_limit.ts";
import { dateStyles, firstSheet, local, sharedStrings } from "./xlsx_parts.ts";
import { bytesOf } from "../blobs/blob_store.ts";
import { ZipDirectory } from "./zip_directory.ts";

/** Columns a worksheet can have (A to XFD). */
export const MAX_XLSX_COLUMNS = 16_384;

const beyondLastColumn = (ref: string) =>
  new UploadFormatError(
    `The sheet has a cell ${
      ref ? `at ${ref.slice(0, 20)} ` : ""
    }beyond column XFD, the last of the 16,384 columns a sheet can have.`,
  );

/** "BC12" -> 54 (zero-based column of a cell reference). */
export function columnIndex(reference: string): number {
  let n = 0;
  for (const c of reference) {
    const code = c.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n - 1;
}

/** An Excel serial date as ISO 8601 text (date only for whole days). */
export function serialToIso(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const ms = Math.round(serial * 86_400_000);
  const iso = new Date(epoch + ms).toISOString();
  return Number.isInteger(serial) ? iso.slice(0, 10) : iso.slice(0, 19);
}

async function* rows(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  maxRowChars: number,
): AsyncGenerator<string[][]> {
  let inflated = 0;
  const count = (bytes: number) => {
    inflated += bytes;
    if (inflated > maxBytes) throw tooLargeDecompressed(maxBytes);
  };
  const zip = new ZipDirectory(await bytesOf(source));
  const sheet = await firstSheet(zip);
  const strings = await sharedStrings(zip, count);
  const dates = await dateStyles(zip);

  let batch: string[][] = [];
  let row: string[] | null = null;
  // A row's length as CSV, without quotes: refused past MAX_ROW_BYTES
  // before it is made (one long shared string can fill 16,384 cells).
  let rowChars = 0;
  let rowNumber = 0;
  let cell: { col: number; type: string; style: number } | null = null;
  let value = "";
  let inValue = false;
  const onOpen = (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    if (name === "row") {
      row = [];
      rowChars = 0;
      rowNumber = Number(tag.attributes.r) || rowNumber + 1;
    } else if (name === "c" && row) {
      const ref = tag.attributes.r ?? "";
      const col = ref ? columnIndex(ref) : row.length;
      if (col >= MAX_XLSX_COLUMNS) throw beyondLastColumn(ref);
      cell = {
        col,
        type: tag.attributes.t ?? "n",
        style: Number(tag.attributes.s ?? 0),
      };
      value = "";
    } else if ((name === "v" || name === "t") && cell) inValue = true;
  };
  const onClose = (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    if (name === "v" || name === "t") inValue = false;
    else if (name === "c" && row && cell) {
      let text = value;
      if (cell.type === "s") text = strings.get(Number(value)) ?? "";
      else if (cell.type === "b") text = value === "1" ? "TRUE" : "FALSE";
      else if (cell.type === "n" && value !== "" && dates[cell.style]) {
        text = serialToIso(Number(value), sheet.date1904);
      }
      rowChars += text.length + 1;
      if (rowChars > maxRowChars) {
        throw rowTooLong(`Row ${rowNumber} of the sheet`, maxRowChars);
      }
      while (row.length < cell.col) row.push("");
      row[cell.col] = text;
      cell = null;
    } else if (name === "row" && row) {
      if (row.some((v) => v !== "")) batch.push(row);
      row = null;
    }
  };
  const parser = new SaxesParser();
  parser.on("opentag", onOpen);
  parser.on("closetag", onClose);
  parser.on("text", (text) => {
    if (inValue) value += text;
  });
  parser.on("cdata", (text) => {
    if (inValue) value += text;
  });
  // The rows of each inflated chunk go on before the next chunk is read.
  const decoder = new TextDecoder();
  for await (const chunk of zip.open(sheet.path)!) {
    count(chunk.byteLength);
    parser.write(decoder.decode(chunk, { stream: true }));
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  parser.write(decoder.decode());
  parser.close();
  if (batch.length > 0) yield batch;
}

/** The first worksheet of an .xlsx stream as CSV bytes (comma-separated). */
export function xlsxFirstSheetCsv(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  maxRowChars: number,
): ReadableStream<Uint8Array> {
  const batches = rows(source, maxBytes, maxRowChars);
  const encoder = new TextEncoder();
  let any = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          if (any) controller.close();
          else {
            controller.error(
              new UploadFormatError("The workbook's first sheet has no rows."),
            );
          }
          return;
        }
        any = true;
        controller.enqueue(encoder.encode(formatRows(next.value)));
      } catch (error) {
        controller.error(
          error instanceof UploadFormatError ? error : new UploadFormatError(
            `The file is not a valid .xlsx workbook (${
              (error as Error).message
            }).`,
          ),
        );
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
