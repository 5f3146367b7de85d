// Kill the server with SIGKILL in the middle of a job, start it again on the
// same data directory, and the download must be byte-identical to an
// uninterrupted run: no row lost, none written twice (a chunk is done or
// not; the ones not done run again).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { UploadResult } from "../../shared/wire.ts";
import { getJson, startJob, uploadOk, waitForRows } from "../helpers/client.ts";
import { assertLikeReference } from "../helpers/reference_run.ts";
import { startPtrServer } from "../helpers/dnsmasq.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import type { JobSummary } from "../../shared/summary.ts";

const ROWS = 20_000;

/**
 * Seeded mix: answered, NXDOMAIN, consumer ISP, invalid and private values.
 * Many distinct addresses, each asked of DNS one at a time, make the job slow
 * enough to kill midway; a generous timeout keeps every answer deterministic.
 */
function makeCsv(rows: number): string {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines = ["ip_address,client_id,note"];
  for (let i = 0; i < rows; i++) {
    const r = random();
    const ip = r < 0.2
      ? "8.8.8.8" // answered
      : r < 0.35
      ? `23.24.${Math.floor(random() * 255)}.1` // Comcast: filtered
      : r < 0.9
      ? `81.2.${Math.floor(random() * 255)}.${Math.floor(random() * 255)}` // NXDOMAIN
      : r < 0.95
      ? "not an ip"
      : "192.168.1.1";
    lines.push(`${ip},c${i},"note ${i}, with comma"`);
  }
  return lines.join("\n") + "\n";
}

const ENV = {
  DNS_TIMEOUT_MS: "10000",
  DNS_CONCURRENCY: "1",
};

async function runJob(server: RunningServer, uploaded: UploadResult) {
  return await startJob(server, uploaded, "ip_address", { includeDomain: 1 });
}

Deno.test({
  name: "a job survives SIGKILL and resumes without losing or repeating rows",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dns = await startPtrServer({
      records: { "8.8.8.8": "dns.google" },
    });
    const env = { ...ENV, DNS_SERVERS: dns.address };
    const csv = makeCsv(ROWS);
    const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-crash-" });
    const reference = await startServer({ env });
    let crashing = await startServer({ env, dataDir });
    try {
      const refJob = await runJob(
        reference,
        await uploadOk(reference, "log.csv", csv),
      );
      const job = await runJob(
        crashing,
        await uploadOk(crashing, "log.csv", csv),
      );

      const before = await waitForRows(crashing, job.id, 2000);
      await crashing.kill();
      assertEquals(
        before.status,
        "processing",
        "killed in the middle of the job",
      );
      ok(before.processedIPs < ROWS);

      // The chunks done before the kill stay done; the others run again
      // from their first row.
      crashing = await startServer({ env, dataDir });

      const { done, download: got } = await assertLikeReference(
        [crashing, job.id],
        [reference, refJob.id],
        ROWS,
        180_000,
      );
      // The upload's lines end in LF, and so do the download's.
      assertEquals(
        got.trimEnd().split("\n").length - 1,
        ROWS - done.filteredIPs,
      );
      // The summary (added up from the chunks' counts) matches the
      // uninterrupted run's: a chunk redone is counted once.
      const counted = async (server: RunningServer, id: number) => ({
        ...(await getJson<JobSummary>(server, `/api/jobs/${id}/summary`)).body,
        jobId: 0,
      });
      const summary = await counted(crashing, job.id);
      assertEquals(summary.rows.total, ROWS);
      assertEquals(summary, await counted(reference, refJob.id));
    } finally {
      await crashing.stop();
      await reference.stop();
      await dns.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
