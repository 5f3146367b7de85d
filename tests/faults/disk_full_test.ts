// DATA_DIR on a small tmpfs that fills up mid-job: the job stops saying the
// disk is full and what to do, an upload that does not fit is refused as
// clearly (507, no partial file left), and once space is freed Restart
// resumes and the download is byte-identical to a run that had room.
// Needs root for mount(8); skipped, saying so, where mounting is refused.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  downloadText,
  postJson,
  startJob,
  upload,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { startServer } from "../helpers/server.ts";
import { mountTmpfs } from "../helpers/tmpfs.ts";

const ROWS = 100_000;

/** A seeded file of public addresses, a few failing values among them. */
function makeCsv(rows: number): string {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const lines = ["ip,id,note"];
  for (let i = 0; i < rows; i++) {
    const ip = i % 50 === 0
      ? "not an ip"
      : `${[23, 81, 8, 5, 62][next() % 5]}.${next() % 256}.${next() % 256}.${
        next() % 256
      }`;
    lines.push(`${ip},id${i},"note ${i}, kept"`);
  }
  return lines.join("\n") + "\n";
}

const disk = await mountTmpfs(96, "disk_full_test");
const mountPoint = disk.path;

Deno.test({
  name: "a full disk stops a job plainly; Restart after freeing loses nothing",
  ignore: !disk.mounted.ok,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const csv = makeCsv(ROWS);
    const env = { MAX_UPLOAD_MB: "50" };
    // The same file on a disk with room: what the download must be.
    const roomy = await startServer({ env });
    let reference: string;
    try {
      const uploaded = await uploadOk(roomy, "in.csv", csv);
      const job = await startJob(roomy, uploaded, "ip");
      assertEquals((await waitForJob(roomy, job.id)).status, "completed");
      reference = await downloadText(roomy, job.id);
    } finally {
      await roomy.stop();
    }

    const dataDir = join(mountPoint, "data");
    await Deno.mkdir(dataDir);
    const server = await startServer({ env, dataDir });
    try {
      const uploaded = await uploadOk(server, "in.csv", csv);
      // Leave ~3 MB: the job's rows need several times that.
      await disk.fill(3 * 1024 * 1024);

      const job = await startJob(server, uploaded, "ip");
      const failed = await waitForJob(server, job.id);
      assertEquals(failed.status, "failed");
      assertEquals(
        failed.error,
        `The disk holding the data directory (${dataDir}) is full: free ` +
          "some space, then press Restart; rows saved so far are kept",
      );
      ok(failed.processedIPs > 0 && failed.processedIPs < ROWS, "mid-job");

      // An upload that does not fit: refused plainly, nothing left behind.
      const uploadsDir = join(dataDir, "uploads");
      const before = [...Deno.readDirSync(uploadsDir)].length;
      const refused = await upload(server, "big.csv", makeCsv(200_000));
      assertEquals(refused.status, 507);
      const body = await refused.json();
      ok(
        String(body.message).startsWith(
          `The disk holding the data directory (${dataDir}) is full`,
        ),
        body.message,
      );
      assertEquals([...Deno.readDirSync(uploadsDir)].length, before);

      // Space freed: Restart keeps the done chunks and runs the others again.
      await disk.free();
      const restarted = await postJson(
        server,
        `/api/jobs/${job.id}/restart`,
        {},
      );
      assertEquals(restarted.status, 200);
      await restarted.body?.cancel();
      const done = await waitForJob(
        server,
        job.id,
        (j) => j.status === "completed" || j.status === "failed",
        120_000,
      );
      assertEquals(done.status, "completed", done.error ?? "");
      const text = await downloadText(server, job.id);
      ok(text === reference, "the download matches the run with room");
    } finally {
      await server.stop();
      await disk.free();
    }
  },
});
