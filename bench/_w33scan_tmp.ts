import { LineScanner } from "../server/csv/line_scanner.ts";
import { sniffDialect } from "../server/csv/dialect.ts";
// @ts-types="npm:@types/papaparse@^5.3"
import Papa from "papaparse";
const bytes = await Deno.readFile("/tmp/w33gen/bench-300000-20260605.csv");
const d = sniffDialect(bytes.subarray(0, 65536), false, false);
const best: Record<string, number> = { all: 1e9, one: 1e9, papa: 1e9 };
for (let round = 0; round < 7; round++) {
  let t = performance.now();
  const s = new LineScanner(d);
  s.scan(bytes, 0, true, () => {
    s.cells();
  });
  best.all = Math.min(best.all, performance.now() - t);
  t = performance.now();
  const s2 = new LineScanner(d);
  s2.scan(bytes, 0, true, () => {
    s2.cell(1);
  });
  best.one = Math.min(best.one, performance.now() - t);
  t = performance.now();
  const text = new TextDecoder().decode(bytes);
  Papa.parse(text, { delimiter: ",", skipEmptyLines: true });
  best.papa = Math.min(best.papa, performance.now() - t);
}
console.log(JSON.stringify(best));
