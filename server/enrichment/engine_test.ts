// The engine over the real bundled databases.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { Engine, loadEngineData } from "./engine.ts";
import { ALL_OPTIONS, errorText } from "./types.ts";
import { addressWords } from "./ip_input.ts";

const config = loadConfig({});
const engine = new Engine(await loadEngineData(config), {
  servers: ["127.0.0.1:9"],
  timeoutMs: 50,
  concurrency: 4,
});
const noDns = { ...ALL_OPTIONS, domain: false };

Deno.test("geolocation, company, ISP and ASN for a public address", async () => {
  const result = await engine.enrich("8.8.8.8", noDns);
  assertEquals(result.success, true);
  assertEquals(result.country, "United States");
  assertEquals(result.country_code, "US");
  assertEquals(result.region, "California");
  assertEquals(result.city, "Mountain View");
  assertEquals(typeof result.latitude, "number");
  assertEquals(result.asn, "AS15169 Google LLC");
  assertEquals(result.isp, "Google LLC");
  assertEquals(result.company, "Google LLC");
  assertEquals(result.network_type, "hosting");
  assertEquals(result.ispFiltered, false);
});

Deno.test("IPv6 is enriched like IPv4", async () => {
  const result = await engine.enrich("[2001:4860:4860::8888]:443", noDns);
  assertEquals(result.ip, "2001:4860:4860::8888");
  assertEquals(result.asn, "AS15169 Google LLC");
  assertEquals(typeof result.country_code, "string");
});

Deno.test("consumer and mobile access networks are filtered (true positives)", async () => {
  // AS6167 (Verizon) is Verizon Wireless: the curated mobile list says so.
  const cases: [string, string, string][] = [
    ["23.24.0.1", "Comcast", "consumer_isp"],
    ["63.46.0.1", "Verizon", "mobile"],
    ["5.35.192.1", "British Telecommunications", "consumer_isp"],
    ["1.120.0.1", "Telstra", "consumer_isp"],
    ["2.58.100.1", "Deutsche Telekom", "consumer_isp"],
    ["45.43.168.1", "Virgin Media", "consumer_isp"],
  ];
  for (const [ip, name, type] of cases) {
    const result = await engine.enrich(ip, noDns);
    assertEquals(result.ispFiltered, true, `${ip} ${result.isp}`);
    assertEquals(result.network_type, type, ip);
    assertEquals(typeof result.classification_reason, "string", ip);
    assertEquals(result.company, null, "no company for consumer access");
    assertEquals(result.isp?.includes(name), true, `${ip}: ${result.isp}`);
  }
});

Deno.test("businesses are kept (true negatives)", async () => {
  const cases: [string, string][] = [
    ["8.8.4.4", "Google"],
    ["1.186.0.1", "Microsoft"],
    ["1.44.96.1", "Amazon"],
    ["67.21.36.1", "University of California"],
    ["130.36.0.1", "Abbott Laboratories"],
    ["24.104.48.1", "Campbell Scientific"],
  ];
  for (const [ip, name] of cases) {
    const result = await engine.enrich(ip, noDns);
    assertEquals(result.ispFiltered, false, `${ip} ${result.isp}`);
    assertEquals(
      result.company?.includes(name),
      true,
      `${ip}: ${result.company}`,
    );
  }
});

Deno.test("only the chosen groups are filled", async () => {
  const result = await engine.enrich("8.8.8.8", {
    geolocation: false,
    domain: false,
    company: false,
    network: true,
  });
  assertEquals(result.country, null);
  assertEquals(result.company, null);
  assertEquals(result.network_type, null);
  assertEquals(result.asn, "AS15169 Google LLC");
});

Deno.test("invalid and private values fail with a reason", async () => {
  const invalid = await engine.enrich("nope", ALL_OPTIONS);
  assertEquals(invalid.failure, { kind: "invalid" });
  assertEquals(errorText(invalid, "job"), "Invalid IP address");
  assertEquals(errorText(invalid, "lookup"), "Invalid IP address format");
  const privateResult = await engine.enrich("192.168.1.1", ALL_OPTIONS);
  assertEquals(privateResult.success, false);
  assertEquals(privateResult.failure, { kind: "reserved", range: "private" });
  assertEquals(errorText(privateResult, "job")?.includes("Private"), true);
});

Deno.test("an address no requested source knows fails with no data", async () => {
  // Domain only, and the resolver (a closed loopback port) answers nothing.
  const result = await engine.enrich("8.8.8.8", {
    geolocation: false,
    domain: true,
    company: false,
    network: false,
  });
  assertEquals(result.success, false);
  assertEquals(result.failure, { kind: "no_data" });
  assertEquals(errorText(result, "job"), "No data found for this address");
});

Deno.test("enrichMany keeps order and looks each address up once", async () => {
  const before = engine.dns.stats.queries;
  const results = await engine.enrichMany(
    ["8.8.8.8", "bad", "8.8.8.8", " 8.8.8.8 ", "1.1.1.1"],
    ALL_OPTIONS,
  );
  assertEquals(results.map((r) => r.ip), [
    "8.8.8.8",
    "bad",
    "8.8.8.8",
    "8.8.8.8",
    "1.1.1.1",
  ]);
  assertEquals(engine.dns.stats.queries - before, 2);
});

Deno.test("a job engine gives addresses of one record one place key, and decodes a key each time it is asked", () => {
  const jobs = new Engine(engine.data, {
    servers: [],
    timeoutMs: 50,
    concurrency: 1,
  }, 0);
  // 8.8.8.8 and 8.8.8.9 share DB-IP's record for Google's block.
  const key = jobs.placeKey(addressWords("8.8.8.8", 4), noDns);
  assertEquals(jobs.placeKey(addressWords("8.8.8.9", 4), noDns), key);
  assertEquals(jobs.placeKey(addressWords("1.1.1.1", 4), noDns) === key, false);
  const first = jobs.geo.placeAt(key);
  assertEquals(first?.city, "Mountain View");
  assertEquals(jobs.locate("8.8.8.9", 4, noDns).place, first);
  // A job engine keeps no places: its chunks number them by key.
  assertEquals(jobs.geo.placeAt(key) === first, false);
  assertEquals(
    jobs.placeKey(addressWords("8.8.8.8", 4), { ...noDns, geolocation: false }),
    -1,
  );
});
