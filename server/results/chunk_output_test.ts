// A chunk's output against each row written and counted on its own: rows
// of one key, place or organisation share their cells and counts, so a
// place's or organisation's later rows (in other keys, after a place that
// could not be read) must come out as the first did.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ChunkOutput, type KeyCount } from "./chunk_output.ts";
import { cellValue, outputCells } from "./output_row.ts";
import { type Dialect, encodeField } from "../csv/dialect.ts";
import {
  composeFinished,
  failedEnrichment,
  type Network,
} from "../enrichment/compose.ts";
import type { Place } from "../enrichment/geo_provider.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import { rowKey } from "../jobs/row_results.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { OutputRow } from "../storage/result_rows.ts";
import { SUCCESS } from "./result_columns.ts";

const options: EnrichOptions = {
  geolocation: true,
  domain: false,
  company: true,
  network: true,
};
const dialect: Dialect = {
  delimiter: ";",
  quote: '"',
  newline: "\r\n",
  bom: false,
  header: btoa("ip;note"),
  headerCells: 2,
};
const job = { headers: ["ip", "note"], dialect, options } as JobRecord;

const place = (key: number, city: string | null, code = "GB"): Place => ({
  key,
  country: code === "GB" ? "United Kingdom" : "France",
  country_code: code,
  region: null,
  city,
  latitude: key + 0.25,
  longitude: -key - 0.5,
});
const places: Place[] = [
  place(1, "London"),
  place(2, "Paris; centre", "FR"),
  { ...place(3, null), error: "The record is corrupt" },
  place(4, "=cmd"),
];
const network = (
  org: string,
  filtered: boolean,
  type = "business",
): Network => ({
  org,
  asnText: `AS${org.length} ${org}`,
  asn: org.length,
  kind: { type, filtered, reason: "test", confidence: 0.9 } as Network["kind"],
});
const networks: Network[] = [
  network('Acme "Ltd"', false),
  network("Home ISP", true, "consumer_isp"),
  network("Beta", false, "hosting"),
];

Deno.test("a chunk's output: each row's line and counts as if written alone", () => {
  let seed = 5;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const encoder = new TextEncoder();
  const output = new ChunkOutput(job);
  const cells = outputCells(options);
  const expected: string[] = [];
  const counts = new Map<string, number>();
  const count = (dim: string, key: string | null, code: string, n = 1) => {
    if (key === null) return;
    const id = JSON.stringify([dim, key, code]);
    counts.set(id, (counts.get(id) ?? 0) + n);
  };
  // The corrupt place first, so its organisations are seen there first.
  const order = [2, 2, 0, 1, 3, 0, 1];
  for (let i = 0; i < 400; i++) {
    const p = i < order.length ? order[i] : Math.floor(random() * 4);
    const n = i < order.length ? i % 3 : Math.floor(random() * 3);
    const ip = `10.0.${p}.${i % 7}`;
    const failed = i % 50 === 49;
    const e = failed
      ? failedEnrichment(ip, { kind: "reserved", range: "private" })
      : composeFinished(
        ip,
        { place: places[p], network: networks[n] },
        { hostname: null, domain: null },
        options,
      );
    const text = i % 5 === 0 ? ip : `${ip};note ${i}`;
    const bytes = encoder.encode(`${text}\n`);
    const row: OutputRow = {
      rowIndex: i,
      line: {
        buf: bytes,
        start: 0,
        contentEnd: bytes.length - 1,
        end: bytes.length,
        fields: text.split(";").length,
      },
      enrichment: e,
    };
    output.addRow(row, failed ? -1 : rowKey(p, n, false));
    if (!e.ispFiltered) {
      const padded = text + ";".repeat(2 - row.line.fields);
      expected.push(
        padded +
          cells.map((cell) =>
            ";" + encodeField(String(cellValue(cell, e)), dialect)
          ).join("") + "\n",
      );
    }
    const code = e.failure ? "failure" : "";
    count(
      "kind",
      JSON.stringify([e.success, e.ispFiltered, e.network_type]),
      code,
    );
    if (!e.ispFiltered) count("company", e.company, "");
    count("asn", e.asn, "");
    count("country", e.country, e.country_code ?? "");
    count("city", e.city, e.country_code ?? "");
    if (e.company !== null || e.asn !== null) {
      count(
        "net",
        JSON.stringify([e.company, e.asn, e.network_type, e.ispFiltered]),
        "",
      );
    }
  }
  const parts = output.finish();
  const kept = new TextDecoder().decode(
    new Uint8Array(parts.kept.flatMap((piece) => [...piece])),
  );
  assertEquals(kept, expected.join(""));
  const got = new Map<string, number>();
  const add = (dim: string, [key, code, n]: KeyCount) => {
    const id = JSON.stringify([dim, key, code]);
    got.set(id, (got.get(id) ?? 0) + n);
  };
  for (const [key, code, n] of parts.meta.kinds) {
    const [success, filtered, type] = JSON.parse(key);
    add("kind", [
      JSON.stringify([!!success, !!filtered, type]),
      code && "failure",
      n,
    ]);
  }
  for (const [dim, { head, tail }] of Object.entries(parts.counts.top)) {
    for (const count of [...head, ...(tail ? JSON.parse(tail) : [])]) {
      add(dim, count);
    }
  }
  const { info, types } = parts.counts.search;
  assertEquals(
    info.length / 3,
    [...counts.keys()].filter((id) => id.startsWith('["net"')).length,
  );
  let netRows = 0;
  for (let k = 0; k < info.length; k += 3) netRows += info[k + 2];
  for (const [id, n] of counts) if (id.startsWith('["net"')) netRows -= n;
  assertEquals(netRows, 0);
  assertEquals(types.length > 0, true);
  for (const id of [...counts.keys()]) {
    if (id.startsWith('["net"')) counts.delete(id);
  }
  assertEquals(new Map([...got].sort()), new Map([...counts].sort()));
  assertEquals(parts.meta.rows, 400);
});

Deno.test("a row of a known key added by its own values comes out as its enrichment would", () => {
  const named = { ...options, domain: true };
  const output = new ChunkOutput({ ...job, options: named } as JobRecord);
  const cells = outputCells(named);
  const encoder = new TextEncoder();
  const lineOf = (text: string) => {
    const buf = encoder.encode(`${text}\n`);
    return {
      buf,
      start: 0,
      contentEnd: buf.length - 1,
      end: buf.length,
      fields: 2,
    };
  };
  const expected: string[] = [];
  const rows: [number, number, string][] = [
    [0, 0, "a.example"],
    [0, 0, "b.example"], // known: its own host name
    [2, 0, "c.example"],
    [2, 0, "d.example"], // known, of a place not read: no host name
  ];
  const flags: number[] = [];
  rows.forEach(([p, n, hostname], i) => {
    const ip = `192.0.2.${i}`;
    const name = { hostname, domain: "example" };
    const e = composeFinished(
      ip,
      { place: places[p], network: networks[n] },
      name,
      named,
    );
    const text = `${ip};r${i}`;
    const key = rowKey(p, n, true);
    const own = { ip, ip_used: null, ...name };
    const known = output.addKnown(i, lineOf(text), own, key);
    flags.push(known);
    if (known < 0) {
      output.addRow({ rowIndex: i, line: lineOf(text), enrichment: e }, key);
    }
    expected.push(
      text +
        cells.map((cell) =>
          ";" + encodeField(String(cellValue(cell, e)), dialect)
        ).join("") + "\n",
    );
  });
  assertEquals(flags, [-1, SUCCESS, -1, 0]);
  const parts = output.finish();
  assertEquals(parts.meta.rows, 4);
  assertEquals(
    new TextDecoder().decode(
      new Uint8Array(parts.kept.flatMap((piece) => [...piece])),
    ),
    expected.join(""),
  );
});
