// A user's own richer databases through ASN_DB, written here to the MMDB
// spec (tests/helpers/mmdb_writer.ts: the first half of the address space
// has one record, the second half another). MaxMind ISP and Connection-Type
// files together: the ISP file's organization is the company, the
// connection type decides the network type and is named in the reason.
// IPinfo company files and MaxMind Enterprise (user_type) in process.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { LookupResponse } from "../../shared/wire.ts";
import { loadConfig } from "../../server/config.ts";
import { Engine, loadEngineData } from "../../server/enrichment/engine.ts";
import { ALL_OPTIONS } from "../../server/enrichment/types.ts";
import { completedJob, getJson } from "../helpers/client.ts";
import { NO_DNS } from "../helpers/http.ts";
import { writeMmdb } from "../helpers/mmdb_writer.ts";
import { startServer } from "../helpers/server.ts";

const LOW = "12.1.2.3"; // first half of the space
const HIGH = "130.1.2.3"; // second half

async function files(dir: string, named: Record<string, Uint8Array>) {
  const paths: string[] = [];
  for (const [name, bytes] of Object.entries(named)) {
    await Deno.writeFile(`${dir}/${name}`, bytes);
    paths.push(`${dir}/${name}`);
  }
  return paths.join(",");
}

Deno.test({
  name: "MaxMind ISP and Connection-Type files through ASN_DB",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "ipenrich-own-db-" });
    const asnDb = await files(dir, {
      "GeoIP2-ISP.mmdb": writeMmdb({
        databaseType: "GeoIP2-ISP",
        low: {
          autonomous_system_number: { uint: 7018 },
          autonomous_system_organization: "AT&T Services, Inc.",
          isp: "AT&T Services",
          organization: "Acme Hotels",
        },
        high: {
          autonomous_system_number: { uint: 7922 },
          autonomous_system_organization: "Comcast Cable Communications, LLC",
          isp: "Comcast Cable",
          organization: "Comcast Cable",
        },
      }),
      "GeoIP2-Connection-Type.mmdb": writeMmdb({
        databaseType: "GeoIP2-Connection-Type",
        low: { connection_type: "Corporate" },
        high: { connection_type: "Cable/DSL" },
      }),
    });
    const server = await startServer({ env: { ...NO_DNS, ASN_DB: asnDb } });
    try {
      const low = await getJson<LookupResponse>(
        server,
        `/api/lookup?ip=${LOW}`,
      );
      if (!low.body.success) throw new Error(JSON.stringify(low.body));
      assertEquals(low.body.company, "Acme Hotels");
      assertEquals(low.body.isp, "AT&T Services, Inc.");
      assertEquals(low.body.network_type, "business");
      assertEquals(
        low.body.classification_reason,
        "MaxMind connection type: Corporate",
      );
      assertEquals(low.body.ispFiltered, false);
      const high = await getJson<LookupResponse>(
        server,
        `/api/lookup?ip=${HIGH}`,
      );
      if (!high.body.success) throw new Error(JSON.stringify(high.body));
      assertEquals(high.body.network_type, "consumer_isp");
      assertEquals(
        high.body.classification_reason,
        "MaxMind connection type: Cable/DSL",
      );
      assertEquals(high.body.ispFiltered, true);

      // A job's rows agree with the lookups.
      const { job, records } = await completedJob(
        server,
        "v.csv",
        `n,ip\nhotel,${LOW}\nhome,${HIGH}\n`,
        "ip",
        { includeDomain: 0 },
      );
      assertEquals(job.filteredIPs, 1);
      assertEquals(
        records.map((r) => [r.n, r.company, r.classification_reason]),
        [
          ["hotel", "Acme Hotels", "MaxMind connection type: Corporate"],
        ],
      );
    } finally {
      await server.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

async function engineFor(
  asnDb: string,
  dataDir: string,
  geoDb?: string,
): Promise<Engine> {
  const config = loadConfig({
    ...NO_DNS,
    ASN_DB: asnDb,
    DATA_DIR: dataDir,
    ...(geoDb && { GEO_DB: geoDb }),
  });
  const dns = { servers: ["127.0.0.1:9"], timeoutMs: 50, concurrency: 4 };
  return new Engine(await loadEngineData(config), dns);
}

Deno.test("IPinfo company files and MaxMind Enterprise user types", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ipenrich-own-db-" });
  try {
    const ipinfo = await engineFor(
      await files(dir, {
        "ipinfo-company.mmdb": writeMmdb({
          databaseType: "ipinfo company.mmdb",
          low: {
            name: "Acme Hotels",
            type: "business",
            asn: "AS7018",
            as_name: "AT&T Services, Inc.",
            as_type: "isp",
          },
          high: {
            name: "Comcast Cable",
            type: "isp",
            asn: "AS7922",
            as_name: "Comcast Cable Communications, LLC",
            as_type: "isp",
          },
        }),
      }),
      dir,
    );
    const hotel = await ipinfo.enrich(LOW, { ...ALL_OPTIONS, domain: false });
    assertEquals(
      [hotel.company, hotel.network_type, hotel.classification_reason],
      ["Acme Hotels", "business", "IPinfo company type: business"],
    );
    const home = await ipinfo.enrich(HIGH, { ...ALL_OPTIONS, domain: false });
    assertEquals(
      [home.network_type, home.ispFiltered, home.classification_reason],
      ["consumer_isp", true, "IPinfo company type: isp"],
    );

    const enterprise = await engineFor(
      await files(dir, {
        "GeoIP2-Enterprise.mmdb": writeMmdb({
          databaseType: "GeoIP2-Enterprise",
          low: {
            traits: {
              autonomous_system_number: { uint: 7018 },
              autonomous_system_organization: "AT&T Services, Inc.",
              organization: "State University",
              user_type: "college",
              connection_type: "Corporate",
            },
          },
          high: {
            traits: {
              autonomous_system_number: { uint: 7922 },
              autonomous_system_organization: "Comcast",
              user_type: "residential",
            },
          },
        }),
      }),
      dir,
    );
    const college = await enterprise.enrich(LOW, {
      ...ALL_OPTIONS,
      domain: false,
    });
    // The user type is the more specific word: it decides over the
    // connection type.
    assertEquals(
      [college.company, college.network_type, college.classification_reason],
      ["State University", "education", "MaxMind user type: college"],
    );
    const resident = await enterprise.enrich(HIGH, {
      ...ALL_OPTIONS,
      domain: false,
    });
    ok(resident.ispFiltered);
    assertEquals(
      resident.classification_reason,
      "MaxMind user type: residential",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Enterprise file in GEO_DB: its traits decide over the bundled ASN data", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ipenrich-own-db-" });
  try {
    const enterprise = await files(dir, {
      "GeoIP2-Enterprise.mmdb": writeMmdb({
        databaseType: "GeoIP2-Enterprise",
        low: {
          country: { iso_code: "US", names: { en: "United States" } },
          traits: {
            autonomous_system_number: { uint: 7018 },
            organization: "Acme Hotels",
            connection_type: "Corporate",
          },
        },
        high: {
          country: { iso_code: "US", names: { en: "United States" } },
          traits: { user_type: "residential" },
        },
      }),
    });
    // The default ASN CSVs: 12.1.2.3 is AS7018, a curated consumer AS.
    const engine = await engineFor("", dir, enterprise);
    for (const geolocation of [true, false]) {
      const hotel = await engine.enrich(LOW, {
        ...ALL_OPTIONS,
        geolocation,
        domain: false,
      });
      assertEquals(
        [hotel.company, hotel.network_type, hotel.classification_reason],
        ["Acme Hotels", "business", "MaxMind connection type: Corporate"],
      );
      assertEquals(hotel.ispFiltered, false);
      assertEquals(hotel.country_code, geolocation ? "US" : null);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
