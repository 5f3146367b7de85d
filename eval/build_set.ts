// Builds eval/networks.csv from eval/labels.txt: for each AS a sample address
// from the bundled ASN data (the middle of its largest IPv4 range, checked to
// map back to it), its main country and registered name, and the split.
// Run once when labels.txt changes: deno run -A eval/build_set.ts
import Papa from "papaparse";
import { buildAsFeatures } from "../server/classification/as_features.ts";
import { loadBundled } from "./bundled.ts";
import { splitOf } from "./split.ts";

const here = new URL(".", import.meta.url).pathname;
const { data, table, geo } = await loadBundled();
const features = buildAsFeatures(data, geo);
const countryOf = new Map(features.asn.map((a, i) => [a, features.country[i]]));

const largest = new Map<number, number>();
for (let i = 0; i < data.v4Org.length; i++) {
  const asn = data.asns[data.v4Org[i]];
  const best = largest.get(asn);
  const size = data.v4End[i] - data.v4Start[i];
  if (best === undefined || size > data.v4End[best] - data.v4Start[best]) {
    largest.set(asn, i);
  }
}
const text = (n: number) =>
  `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

const rows: string[][] = [];
const missing: string[] = [];
for (const raw of (await Deno.readTextFile(`${here}labels.txt`)).split("\n")) {
  const line = raw.trim();
  if (!line || line.startsWith("#")) continue;
  const [asnText, label, source] = line.split("|");
  const asn = Number(asnText);
  const i = largest.get(asn);
  if (i === undefined) {
    missing.push(asnText);
    continue;
  }
  const ip = text(
    data.v4Start[i] + Math.floor((data.v4End[i] - data.v4Start[i]) / 2),
  );
  const info = table.lookup(ip, 4);
  if (info?.asn !== asn) throw new Error(`${ip} does not map to AS${asn}`);
  const country = countryOf.get(asn) || geo.place(ip, 4)?.country_code || "";
  rows.push([
    String(asn),
    ip,
    country,
    info.org,
    label,
    source,
    splitOf(asn),
  ]);
}
const csv = Papa.unparse({
  fields: [
    "asn",
    "sample_ip",
    "country",
    "org",
    "label",
    "label_source",
    "split",
  ],
  data: rows,
});
await Deno.writeTextFile(`${here}networks.csv`, csv + "\n");
console.log(
  `${rows.length} networks written; not in the bundled data: ${
    missing.join(", ") || "none"
  }`,
);
