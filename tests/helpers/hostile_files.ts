// Small files that expand to a lot: gzips and zips of hundreds of MiB of
// short lines, and an .xlsx with millions of shared strings. The tests and
// the benchmark upload them and read the server's peak memory from /proc.
import { Zip, ZipDeflate, zipSync } from "fflate";

const MIB = 1024 * 1024;

async function gzipped(text: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const gzip = text.pipeThrough(
    new CompressionStream("gzip") as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >,
  );
  return new Uint8Array(await new Response(gzip).arrayBuffer());
}

/** `text` as a gzip file. */
export function gzipText(text: string): Promise<Uint8Array> {
  return gzipped(new Blob([text]).stream());
}

/**
 * A zip whose one CSV expands to `mib` MiB of 63-digit lines (one endless
 * line would meet MAX_ROW_BYTES first), written as a stream: its sizes
 * follow the data, so only decompressing finds how large it is.
 */
export function zipBomb(mib: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    parts.push(data);
  });
  const entry = new ZipDeflate("bomb.csv", { level: 9 });
  zip.add(entry);
  const block = new TextEncoder().encode(`${"1".repeat(63)}\n`.repeat(16384));
  for (let i = 0; i < mib; i++) entry.push(block, i === mib - 1);
  zip.end();
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  parts.reduce((at, p) => (all.set(p, at), at + p.byteLength), 0);
  return all;
}

/** A gzip of "ip\n" and then `mib` MiB of `line` repeated. */
export function repeatedLinesGzip(
  line: string,
  mib: number,
): Promise<Uint8Array> {
  const block = new TextEncoder().encode(line.repeat(MIB / line.length));
  let left = mib;
  const text = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("ip\n"));
    },
    pull(controller) {
      if (left-- > 0) controller.enqueue(block);
      else controller.close();
    },
  });
  return gzipped(text);
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC =
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * An .xlsx whose sheet has a header and one address, and whose shared
 * strings number `count` (a multiple of 1,000; the rest are the numbers
 * 0-999 over and over, which no cell refers to).
 */
export function sharedStringsXlsx(count: number): Uint8Array {
  const block = Array.from({ length: 1000 }, (_, i) => `<si><t>${i}</t></si>`)
    .join("");
  const strings = "<si><t>ip</t></si><si><t>8.8.8.8</t></si>" +
    block.slice(block.indexOf("<si><t>2<")) + block.repeat(count / 1000 - 1);
  const text = (xml: string) => new TextEncoder().encode(xml);
  return zipSync({
    "[Content_Types].xml": text(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ),
    "xl/workbook.xml": text(
      `<workbook xmlns="${MAIN}" xmlns:r="${DOC}"><sheets>` +
        '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    "xl/_rels/workbook.xml.rels": text(
      `<Relationships xmlns="${RELS}"><Relationship Id="rId1" ` +
        `Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/>` +
        "</Relationships>",
    ),
    "xl/worksheets/sheet1.xml": text(
      `<worksheet xmlns="${MAIN}"><sheetData>` +
        '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c></row>' +
        "</sheetData></worksheet>",
    ),
    "xl/sharedStrings.xml": text(
      `<sst xmlns="${MAIN}" count="${count}" uniqueCount="${count}">` +
        strings + "</sst>",
    ),
  }, { level: 1 });
}

/** Peak resident memory (VmHWM) of a running process, from /proc. */
export function peakRss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) * 1024;
}
