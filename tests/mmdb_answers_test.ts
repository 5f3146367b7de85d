// MaxMind's valid GeoIP2 City and GeoLite2 ASN test databases, read through
// the providers as GEO_DB / ASN_DB would, answer exactly what the JSON they
// were written from says (tests/fixtures/mmdb/source-data), for the first and
// last address of every network in it.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { AsnTable, loadAsnTable } from "../server/enrichment/asn_table.ts";
import {
  type GeoFields,
  GeoProvider,
  loadGeoDatabases,
} from "../server/enrichment/geo_provider.ts";
import { networkEdges } from "./helpers/mmdb_source.ts";
import { startServer } from "./helpers/server.ts";

const FIXTURES = new URL("./fixtures/mmdb/", import.meta.url).pathname;

// deno-lint-ignore no-explicit-any
function cityFields(data: any): GeoFields {
  return {
    country_code: data.country?.iso_code ?? null,
    region: data.subdivisions?.[0]?.names?.en ?? null,
    city: data.city?.names?.en ?? null,
    latitude: data.location?.latitude ?? null,
    longitude: data.location?.longitude ?? null,
  };
}

Deno.test("GeoIP2 City test database answers as its source data", async () => {
  const geo = new GeoProvider(
    await loadGeoDatabases([`${FIXTURES}test-data/GeoIP2-City-Test.mmdb`]),
  );
  const edges = networkEdges("GeoIP2-City-Test.json");
  for (const { ip, version, data } of edges) {
    assertEquals(geo.lookup(ip, version), data ? cityFields(data) : null, ip);
  }
  ok(edges.length > 400, `${edges.length} addresses`);
  // Spot checks, written out: the values a reader sees.
  assertEquals(geo.lookup("81.2.69.160", 4), {
    country_code: "GB",
    region: "England",
    city: "London",
    latitude: 51.5142,
    longitude: -0.0931,
  });
  assertEquals(geo.lookup("216.160.83.56", 4)?.city, "Milton");
  assertEquals(geo.lookup("2001:218::1", 6)?.country_code, "JP");
});

Deno.test("GeoLite2 ASN test database answers as its source data", async () => {
  const table = new AsnTable(
    await loadAsnTable([`${FIXTURES}test-data/GeoLite2-ASN-Test.mmdb`]),
  );
  const edges = networkEdges("GeoLite2-ASN-Test.json");
  for (const { ip, version, data } of edges) {
    assertEquals(
      table.lookup(ip, version),
      data
        ? {
          asn: data.autonomous_system_number,
          org: data.autonomous_system_organization ?? "",
        }
        : null,
      ip,
    );
  }
  ok(edges.length > 1000, `${edges.length} addresses`);
  assertEquals(table.lookup("1.0.0.1", 4), { asn: 15169, org: "Google Inc." });
});

Deno.test("the server started on the City and ASN test files answers from them", async () => {
  const server = await startServer({
    env: {
      GEO_DB: `${FIXTURES}test-data/GeoIP2-City-Test.mmdb`,
      ASN_DB: `${FIXTURES}test-data/GeoLite2-ASN-Test.mmdb`,
    },
  });
  try {
    const response = await fetch(`${server.url}/api/lookup?ip=216.160.83.56`);
    const body = await response.json();
    assertEquals(response.status, 200);
    // The ASN source data gives AS209 no organisation name.
    assertEquals(
      [body.country_code, body.region, body.city, body.latitude, body.asn],
      [
        "US",
        "Washington",
        "Milton",
        47.2513,
        "AS209",
      ],
    );
  } finally {
    await server.stop();
  }
});
