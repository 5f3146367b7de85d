// The richer fields of a user's own databases: MaxMind's GeoIP2 ISP,
// Connection-Type and Enterprise test databases (vendored, answers from their
// source JSON) and IPinfo-shaped files written to the MMDB spec here.
import {
  deepStrictEqual as assertEquals,
  ok,
  throws as assertThrows,
} from "node:assert/strict";
import { AsnTable, loadAsnTable } from "../server/enrichment/asn_table.ts";
import { addressWords } from "../server/enrichment/ip_input.ts";
import {
  MmdbDatabase,
  MmdbError,
  type MmdbFile,
} from "../server/enrichment/mmdb_database.ts";
import {
  type NetworkFields,
  readNetworkFields,
} from "../server/enrichment/network_fields.ts";
import { fromBig, networkEdges, networks } from "./helpers/mmdb_source.ts";
import { writeMmdb } from "./helpers/mmdb_writer.ts";

const FIXTURES = new URL("./fixtures/mmdb/", import.meta.url).pathname;

/** One file's network fields, as AsnTable reads each of its files. */
class NetworkDatabase {
  #db: MmdbDatabase;

  constructor(file: MmdbFile) {
    this.#db = new MmdbDatabase(file);
  }

  get databaseType(): string {
    return this.#db.metadata.databaseType;
  }

  /** The fields at an address; null when the file has no record there. */
  lookup(ip: string, version: 4 | 6): NetworkFields | null {
    const record = this.#db.recordOf(addressWords(ip, version));
    return record === 0
      ? null
      : readNetworkFields(this.#db.decodeRecord(record));
  }
}

const NONE: NetworkFields = {
  asn: null,
  asOrg: null,
  company: null,
  isp: null,
  connectionType: null,
  userType: null,
  companyType: null,
  asType: null,
};

// deno-lint-ignore no-explicit-any
function maxmindFields(data: any): NetworkFields {
  const t = data.traits ?? data;
  return {
    ...NONE,
    asn: t.autonomous_system_number ?? null,
    asOrg: t.autonomous_system_organization ?? null,
    company: t.organization ?? null,
    isp: t.isp ?? null,
    connectionType: t.connection_type ?? null,
    userType: t.user_type ?? null,
  };
}

for (
  const product of [
    "GeoIP2-ISP-Test",
    "GeoIP2-Connection-Type-Test",
    "GeoIP2-Enterprise-Test",
  ]
) {
  Deno.test(`${product}: fields as its source data says`, async () => {
    // Through ASN_DB's loader: the file is checked and accepted.
    const [bytes] = (await loadAsnTable([
      `${FIXTURES}test-data/${product}.mmdb`,
    ])).mmdb;
    const db = new NetworkDatabase(bytes);
    let found = 0;
    for (const { ip, version, data } of networkEdges(`${product}.json`)) {
      const answer = db.lookup(ip, version);
      if (!data) {
        assertEquals(answer, null, ip);
        continue;
      }
      assertEquals(answer, maxmindFields(data), ip);
      found++;
    }
    ok(found >= 2 * 20, `${found} addresses`);
  });
}

Deno.test("spot checks of the MaxMind products", async () => {
  const open = async (name: string) =>
    new NetworkDatabase(
      (await loadAsnTable([`${FIXTURES}test-data/${name}.mmdb`])).mmdb[0],
    );
  const isp = await open("GeoIP2-ISP-Test");
  assertEquals(isp.lookup("1.128.0.1", 4), {
    ...NONE,
    asn: 1221,
    asOrg: "Telstra Pty Ltd",
    company: "Telstra Internet",
    isp: "Telstra Internet",
  });
  const types = await open("GeoIP2-Connection-Type-Test");
  assertEquals(types.lookup("1.0.1.1", 4)?.connectionType, "Cellular");
  const enterprise = await open("GeoIP2-Enterprise-Test");
  assertEquals(enterprise.databaseType, "GeoIP2-Enterprise");
  assertEquals(enterprise.lookup("74.209.24.1", 4), {
    ...NONE,
    asn: 14671,
    asOrg: "FairPoint Communications",
    company: "Fairpoint Communications",
    isp: "Fairpoint Communications",
    connectionType: "Cable/DSL",
    userType: "residential",
  });
});

Deno.test("AS numbers come from Enterprise traits and IPinfo text", async () => {
  const enterprise = new AsnTable(
    await loadAsnTable([`${FIXTURES}test-data/GeoIP2-Enterprise-Test.mmdb`]),
  );
  const json = networks("GeoIP2-Enterprise-Test.json");
  const withAsn = json.find((n) =>
    // deno-lint-ignore no-explicit-any
    (n.data as any).traits?.autonomous_system_number
  )!;
  const ip = fromBig(withAsn.first, withAsn.v4);
  // deno-lint-ignore no-explicit-any
  const traits = (withAsn.data as any).traits;
  const info = enterprise.lookup(ip, withAsn.v4 ? 4 : 6);
  assertEquals({ asn: info?.asn, org: info?.org }, {
    asn: traits.autonomous_system_number,
    org: traits.autonomous_system_organization ?? "",
  });
  // The richer traits travel with it, for the classification.
  assertEquals(info?.vendor?.userType ?? null, traits.user_type ?? null);
  assertEquals(info?.vendor?.company ?? null, traits.organization ?? null);
});

Deno.test("IPinfo ASN and company files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ipinfo-mmdb-" });
  try {
    const asnFile = `${dir}/asn.mmdb`;
    Deno.writeFileSync(
      asnFile,
      writeMmdb({
        databaseType: "ipinfo standard_asn.mmdb",
        low: { asn: "AS7018", name: "AT&T Services, Inc.", type: "isp" },
      }),
    );
    const companyFile = `${dir}/company.mmdb`;
    Deno.writeFileSync(
      companyFile,
      writeMmdb({
        databaseType: "ipinfo company.mmdb",
        low: {
          name: "Acme Hotels",
          domain: "acme.example",
          type: "business",
          asn: "AS7018",
          as_name: "AT&T Services, Inc.",
          as_type: "isp",
        },
        high: { name: "Broken", asn: { uint: 0 }, as_name: "x" },
      }),
    );
    const table = await loadAsnTable([asnFile, companyFile]);
    // The AS from the first file; the company and types from any.
    assertEquals(new AsnTable(table).lookup("12.1.2.3", 4), {
      asn: 7018,
      org: "AT&T Services, Inc.",
      vendor: {
        company: "Acme Hotels",
        connectionType: null,
        userType: null,
        companyType: "business",
        asType: "isp",
      },
    });
    assertEquals(
      new NetworkDatabase(table.mmdb[0]).lookup("12.1.2.3", 4),
      { ...NONE, asn: 7018, asOrg: "AT&T Services, Inc.", asType: "isp" },
    );
    const company = new NetworkDatabase(table.mmdb[1]);
    assertEquals(company.lookup("12.1.2.3", 4), {
      ...NONE,
      asn: 7018,
      asOrg: "AT&T Services, Inc.",
      company: "Acme Hotels",
      companyType: "business",
      asType: "isp",
    });
    // An AS number of 0 is no AS number: the record is an error, no value.
    assertThrows(() => company.lookup("200.1.2.3", 4), MmdbError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
