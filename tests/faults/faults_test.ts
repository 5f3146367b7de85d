// Faults: repeated crashes during a job, a DNS server that dies mid-job,
// many jobs and pollers at once, and a corrupt database at start.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Job } from "../../shared/wire.ts";
import {
  csvRecords,
  downloadText,
  getJob,
  getJson,
  startJob,
  uploadAndStart,
  uploadOk,
  waitForJob,
  waitForRows,
} from "../helpers/client.ts";
import { startSynthPtrServer, SYNTH_RECORDS } from "../helpers/dnsmasq.ts";
import { startServer } from "../helpers/server.ts";
import { startServerWithDns } from "../helpers/server_with_dns.ts";
import { assertLikeReference } from "../helpers/reference_run.ts";

const QUIET = { sanitizeResources: false, sanitizeOps: false };

/** Seeded rows over many distinct addresses (each a DNS round trip). */
function makeCsv(rows: number, seed: number): string {
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines = ["ip,row,note"];
  for (let i = 0; i < rows; i++) {
    const r = random();
    const ip = r < 0.7
      ? `81.2.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
      : r < 0.85
      ? `23.24.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
      : r < 0.95
      ? "8.8.8.8"
      : "nonsense";
    lines.push(`${ip},${i},"n ${i}, x"`);
  }
  return lines.join("\n") + "\n";
}

Deno.test({
  ...QUIET,
  name:
    "five SIGKILLs during a 100,000-row job: the download is byte-identical",
  async fn() {
    const dns = await startSynthPtrServer();
    const env = {
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: "10000",
      DNS_CONCURRENCY: "1",
      // A Domain job's chunks are DNS_CHUNK_ROWS after its first two: chunks
      // of 10,000 rows, so each kill below falls inside some and after
      // others (at 50,000, the two running chunks were the whole job and
      // its last 20,000 rows could pass between two progress reports).
      DNS_CHUNK_ROWS: "10000",
    };
    const rows = 100_000;
    const csv = makeCsv(rows, 7);
    const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-kills-" });
    const reference = await startServer({ env });
    let server = await startServer({ env, dataDir });
    try {
      const refJob = await uploadAndStart(reference, "big.csv", csv, "ip", {
        includeDomain: 1,
      });
      const job = await uploadAndStart(server, "big.csv", csv, "ip", {
        includeDomain: 1,
      });
      let kills = 0;
      for (const threshold of [10_000, 25_000, 40_000, 60_000, 80_000]) {
        const seen = await waitForJob(
          server,
          job.id,
          (j) => j.processedIPs >= threshold || j.status === "completed",
          300_000,
          10,
        );
        if (seen.status === "completed") break;
        await server.kill();
        kills++;
        // Its done chunks stay done; the others run again.
        server = await startServer({ env, dataDir });
        assertEquals((await getJob(server, job.id)).status, "processing");
      }
      assertEquals(kills, 5, "the job was killed five times before it ended");
      await assertLikeReference(
        [server, job.id],
        [reference, refJob.id],
        rows,
        300_000,
      );
    } finally {
      await server.stop();
      await reference.stop();
      await dns.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  ...QUIET,
  name:
    "the DNS server dies mid-job: the job completes, later rows have no host name",
  async fn() {
    const fixture = await startServerWithDns(SYNTH_RECORDS, {
      DNS_TIMEOUT_MS: "300",
      DNS_CONCURRENCY: "2",
    });
    const { server, dns } = fixture;
    try {
      const lines = ["ip,row"];
      for (let i = 0; i < 20_000; i++) {
        lines.push(`81.2.${i >> 8}.${i & 255},${i}`);
      }
      // Synthetic names encode the address, which reads as a dynamic
      // (consumer) assignment: keep every row so all can be checked.
      const job = await uploadAndStart(
        server,
        "d.csv",
        lines.join("\n"),
        "ip",
        {
          includeDomain: 1,
          alwaysKeep: "81.2.0.0/16",
        },
      );
      const atKill = await waitForRows(server, job.id, 2000);
      await dns.stop();
      assertEquals(atKill.status, "processing", "killed in the middle");
      const done = await waitForJob(server, job.id, undefined, 120_000);
      assertEquals(done.status, "completed");
      assertEquals(done.processedIPs, 20_000);
      const records = csvRecords(await downloadText(server, job.id));
      // The job's rows counted at the kill are its done chunks' and the
      // running chunks' (some hundred rows each, two threads) so far.
      const before = records.filter((r) =>
        Number(r.row) < atKill.processedIPs - 1000
      );
      ok(before.length > 500);
      for (const r of before) {
        const [, , c, d] = r.ip.split(".");
        assertEquals(
          r.hostname,
          `81-2-${c}-${d}.synth.test`,
          "answered before the kill",
        );
      }
      // Rows in flight when it died may still have answers; none after.
      const after = records.filter((r) =>
        Number(r.row) >= atKill.processedIPs + 2100
      );
      ok(after.length > 10_000);
      assertEquals(after.filter((r) => r.hostname !== "").length, 0);
      ok(after.every((r) => r.enrichment_success === "true"));
    } finally {
      await fixture.stop();
    }
  },
});

Deno.test({
  ...QUIET,
  name:
    "five jobs and 50 polling clients: all complete under the concurrency limit",
  async fn() {
    const fixture = await startServerWithDns(SYNTH_RECORDS, {
      DNS_TIMEOUT_MS: "5000",
      DNS_CONCURRENCY: "4",
      JOB_CONCURRENCY: "2",
    });
    const { server } = fixture;
    try {
      const jobs: Job[] = [];
      for (let k = 0; k < 5; k++) {
        const uploaded = await uploadOk(
          server,
          `j${k}.csv`,
          makeCsv(5000, 100 + k),
        );
        jobs.push(await startJob(server, uploaded, "ip", { includeDomain: 1 }));
      }
      let failures = 0;
      let requests = 0;
      let maxProcessing = 0;
      let finished = false;
      const poller = async (i: number) => {
        while (!finished) {
          try {
            const path = i % 2 ? "/api/jobs" : `/api/jobs/${jobs[i % 5].id}`;
            const response = await getJson<Job[] | Job>(server, path);
            requests++;
            if (response.status !== 200) failures++;
            if (Array.isArray(response.body)) {
              const processing = response.body.filter((j) =>
                j.status === "processing"
              ).length;
              maxProcessing = Math.max(maxProcessing, processing);
            }
          } catch {
            failures++;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const pollers = Array.from({ length: 50 }, (_, i) => poller(i));
      const done = await Promise.all(
        jobs.map((j) => waitForJob(server, j.id, undefined, 300_000)),
      );
      finished = true;
      await Promise.all(pollers);
      assertEquals(done.map((j) => j.status), Array(5).fill("completed"));
      ok(done.every((j) => j.processedIPs === 5000));
      assertEquals(failures, 0, `${failures} of ${requests} requests failed`);
      ok(requests > 100, `${requests} requests`);
      ok(
        maxProcessing >= 1 && maxProcessing <= 2,
        `at most 2 at once, saw ${maxProcessing}`,
      );
    } finally {
      await fixture.stop();
    }
  },
});

Deno.test({
  ...QUIET,
  name:
    "a corrupt database stops the server with a clear message; a missing one is created",
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-corrupt-" });
    try {
      const garbage = new TextEncoder().encode("not a database ".repeat(1000));
      await Deno.writeFile(join(dataDir, "enrichment.db"), garbage);
      let error = "";
      try {
        const server = await startServer({ dataDir, keepDataDir: true });
        await server.stop();
      } catch (e) {
        error = (e as Error).message;
      }
      match(error, /server exited \(1\)/);
      match(error, /cannot open the database at .*enrichment\.db/);
      // The file is left as it was: nothing is overwritten silently.
      assertEquals(
        await Deno.readFile(join(dataDir, "enrichment.db")),
        garbage,
      );

      await Deno.remove(join(dataDir, "enrichment.db"));
      await Deno.writeFile(join(dataDir, "queue.kv"), garbage);
      error = "";
      try {
        const server = await startServer({ dataDir, keepDataDir: true });
        await server.stop();
      } catch (e) {
        error = (e as Error).message;
      }
      match(error, /cannot open the job queue at .*queue\.kv/);

      await Deno.remove(join(dataDir, "queue.kv"));
      const fresh = await startServer({
        dataDir: join(dataDir, "new", "dir"),
        keepDataDir: true,
      });
      assertEquals((await getJson(fresh, "/api/jobs")).body, []);
      await fresh.stop();
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
