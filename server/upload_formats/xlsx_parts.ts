// The small parts of an .xlsx the first sheet depends on: which sheet is
// first, the shared strings, which cell styles are dates, and the 1904 flag.
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { UploadFormatError } from "./limits.ts";
import type { ZipDirectory } from "./zip_directory.ts";

/** Streams an XML entry through a SAX parser set up by `listen`. */
export async function parseXml(
  stream: ReadableStream<Uint8Array> | null,
  listen: (parser: SaxesParser) => void,
  onChunk?: (byteLength: number) => void,
): Promise<void> {
  if (!stream) return;
  const parser = new SaxesParser();
  listen(parser);
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    onChunk?.(chunk.byteLength);
    parser.write(decoder.decode(chunk, { stream: true }));
  }
  parser.write(decoder.decode());
  parser.close();
}

/** A tag name without its namespace prefix. */
export const local = (name: string) => name.slice(name.indexOf(":") + 1);
const attr = (tag: SaxesTagPlain, name: string) =>
  Object.entries(tag.attributes).find(([key]) => local(key) === name)?.[1];

/** The workbook's first sheet (in tab order) and its date system. */
export async function firstSheet(
  zip: ZipDirectory,
): Promise<{ path: string; date1904: boolean }> {
  let firstId: string | undefined;
  let date1904 = false;
  await parseXml(zip.open("xl/workbook.xml"), (p) =>
    p.on("opentag", (tag) => {
      const name = local(tag.name);
      if (name === "sheet" && firstId === undefined) firstId = attr(tag, "id");
      if (name === "workbookPr") {
        const value = attr(tag, "date1904");
        date1904 = value === "1" || value === "true";
      }
    }));
  let target: string | undefined;
  await parseXml(
    zip.open("xl/_rels/workbook.xml.rels"),
    (p) =>
      p.on("opentag", (tag) => {
        if (local(tag.name) === "Relationship" && attr(tag, "Id") === firstId) {
          target = attr(tag, "Target");
        }
      }),
  );
  if (target) {
    const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
    if (zip.has(path)) return { path, date1904 };
  }
  // No workbook parts: the lowest-numbered sheet file.
  const sheets = [...zip.entries.keys()]
    .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
  if (!sheets[0]) throw new Error("the workbook has no sheets");
  return { path: sheets[0], date1904 };
}

/** Shared strings kept by the server: their text plus 4 bytes each. */
export const MAX_SHARED_STRINGS_BYTES = 128 * 1024 * 1024;
const BATCH_BITS = 12;
const BATCH = 1 << BATCH_BITS;

/**
 * The workbook's shared strings, packed: each batch of 4,096 is one string
 * and its offsets, so millions of short strings cost their text and 4 bytes
 * each, not an object each (a 1.77 MB file can hold 4.5 million).
 */
export class SharedStrings {
  readonly #texts: string[] = [];
  readonly #offsets: Uint32Array[] = [];
  #batch: string[] = [];
  #bytes = 0;
  #count = 0;

  add(text: string): void {
    this.#bytes += text.length + 4;
    if (this.#bytes > MAX_SHARED_STRINGS_BYTES) {
      throw new UploadFormatError(
        `The workbook's shared text is over ${
          MAX_SHARED_STRINGS_BYTES / (1024 * 1024)
        } MB, more than the server reads from an .xlsx; save the first ` +
          "sheet as CSV and upload that.",
      );
    }
    this.#batch.push(text);
    this.#count++;
    if (this.#batch.length === BATCH) this.#pack();
  }

  /** The string at `index`; undefined past the end. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) {
      return undefined;
    }
    const batch = index >>> BATCH_BITS;
    const at = index & (BATCH - 1);
    if (batch === this.#texts.length) return this.#batch[at];
    const offsets = this.#offsets[batch];
    if (!offsets) return undefined;
    return this.#texts[batch].slice(offsets[at], offsets[at + 1]);
  }

  #pack(): void {
    const offsets = new Uint32Array(BATCH + 1);
    let at = 0;
    this.#batch.forEach((text, i) => {
      offsets[i] = at;
      at += text.length;
    });
    offsets[BATCH] = at;
    // join copies into one flat string: the parser's chunks the pieces
    // were cut from can be freed.
    this.#texts.push(this.#batch.join(""));
    this.#offsets.push(offsets);
    this.#batch = [];
  }
}

/** Shared strings, in order; phonetic runs (rPh) left out. */
export async function sharedStrings(
  zip: ZipDirectory,
  count: (bytes: number) => void,
): Promise<SharedStrings> {
  const strings = new SharedStrings();
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await parseXml(zip.open("xl/sharedStrings.xml"), (p) => {
    p.on("opentag", (tag) => {
      const name = local(tag.name);
      if (name === "si") current = "";
      else if (name === "rPh") phonetic++;
      else if (name === "t") inText = true;
    });
    p.on("text", (text) => {
      if (inText && phonetic === 0 && current !== null) current += text;
    });
    p.on("closetag", (tag) => {
      const name = local(tag.name);
      if (name === "si") {
        strings.add(current ?? "");
        current = null;
      } else if (name === "rPh") phonetic--;
      else if (name === "t") inText = false;
    });
  }, count);
  return strings;
}

// Built-in number formats that are dates or times (ECMA-376 18.8.30).
const DATE_FORMAT_IDS = new Set(
  "14 15 16 17 18 19 20 21 22 27 30 36 45 46 47 50 57".split(" ").map(Number),
);

/** A format code that shows a date or time: d, m, y, h or s outside quotes. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\sE+-]*$/.test(bare);
}

/** For each cell style index (the `s` of a cell): whether it is a date. */
export async function dateStyles(zip: ZipDirectory): Promise<boolean[]> {
  const custom = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await parseXml(zip.open("xl/styles.xml"), (p) => {
    p.on("opentag", (tag) => {
      const name = local(tag.name);
      if (name === "numFmt") {
        custom.set(
          Number(attr(tag, "numFmtId")),
          attr(tag, "formatCode") ?? "",
        );
      } else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(attr(tag, "numFmtId") ?? 0);
        styles.push(
          DATE_FORMAT_IDS.has(id) ||
            (custom.has(id) && isDateFormat(custom.get(id)!)),
        );
      }
    });
    p.on("closetag", (tag) => {
      if (local(tag.name) === "cellXfs") inCellXfs = false;
    });
  });
  return styles;
}
