// .tsv: tab-separated text has no quoting (a tab or line end cannot be in a
// cell), so a quote inside a cell is an ordinary character. A CSV parser
// would read a cell starting with a quote as a quoted field; converting each
// line to CSV, quoted where needed, keeps every cell as it was.
import { csvField } from "../csv/csv_rows.ts";

/** Tab-separated lines in, CSV lines (CRLF) out, streaming. */
export function tsvToCsv(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = "";
  const line = (text: string) =>
    text.replace(/\r$/, "").split("\t").map(csvField).join(",") + "\r\n";
  return new TransformStream({
    transform(chunk, controller) {
      const text = rest + decoder.decode(chunk, { stream: true });
      const end = text.lastIndexOf("\n");
      if (end < 0) {
        rest = text;
        return;
      }
      rest = text.slice(end + 1);
      const lines = text.slice(0, end).split("\n");
      controller.enqueue(encoder.encode(lines.map(line).join("")));
    },
    flush(controller) {
      rest += decoder.decode();
      if (rest !== "") controller.enqueue(encoder.encode(line(rest)));
    },
  });
}
