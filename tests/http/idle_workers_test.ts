// A job thread with no chunk ends after JOB_WORKER_IDLE_SECONDS (a minute
// by default, so a next job finds it started), at once when it has run
// more than JOB_WORKER_RETIRE_ROWS (its memory back to the system; the
// summary of a job it completed is added up on a thread of its own), and
// the next job starts a new one. The server's threads are read from /proc
// (Linux); PostgreSQL mode runs no job worker threads.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startJob, uploadOk, waitForJob } from "../helpers/client.ts";
import { startServer, usingPostgres } from "../helpers/server.ts";
import { jobThreads } from "../helpers/threads.ts";

const CSV = "ip_address\n8.8.8.8\n1.1.1.1\n";

/** Waits until `path` exists; false after `ms`. */
async function untilFile(path: string, ms = 15_000) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await Deno.stat(path).then(() => true, () => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Waits until the server runs `count` job threads; false after `ms`. */
async function untilJobThreads(pid: number, count: number, ms = 15_000) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (jobThreads(pid) === count) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

Deno.test({
  name: "an idle job worker ends, and the next job starts another",
  ignore: usingPostgres || Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      env: { JOB_WORKER_IDLE_SECONDS: "3" },
    });
    try {
      const pid = server.process.pid;
      assertEquals(jobThreads(pid), 0);
      for (let run = 0; run < 2; run++) {
        const uploaded = await uploadOk(server, "ips.csv", CSV);
        const job = await startJob(server, uploaded, "ip_address");
        assertEquals((await waitForJob(server, job.id)).status, "completed");
        // The job's worker and writer, until they have been idle 3 s.
        assertEquals(jobThreads(pid) > 0, true);
        assertEquals(await untilJobThreads(pid, 0), true);
      }
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "a job's threads are kept for the next, unless they ran many rows",
  ignore: usingPostgres || Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    /** Job threads of a server 2 s after each of two jobs. */
    const after = async (env: Record<string, string>, retired = false) => {
      const server = await startServer({ env });
      try {
        const counts: number[] = [];
        for (let run = 0; run < 2; run++) {
          const uploaded = await uploadOk(server, "ips.csv", CSV);
          const job = await startJob(server, uploaded, "ip_address");
          const done = await waitForJob(server, job.id);
          assertEquals(done.status, "completed");
          if (retired) {
            // Its summary is kept (by a thread of its own, which then ends).
            const kept = `${server.dataDir}/results/${job.id}/summary.json`;
            assertEquals(await untilFile(kept), true);
            const summary = JSON.parse(await Deno.readTextFile(kept));
            assertEquals(
              [summary.rows.total, summary.distinctAddresses],
              [2, 2],
            );
            // Waits for the threads to end rather than for a fixed time.
            await untilJobThreads(server.process.pid, 0);
          } else {
            // Kept: still there after a while (nothing to wait on).
            await new Promise((resolve) => setTimeout(resolve, 2000));
          }
          counts.push(jobThreads(server.process.pid));
        }
        return counts;
      } finally {
        await server.stop();
      }
    };
    // By default: the first job's thread runs the second job too.
    assertEquals(await after({}), [1, 1]);
    // Past JOB_WORKER_RETIRE_ROWS (here 1; the file has 2 rows): gone.
    assertEquals(await after({ JOB_WORKER_RETIRE_ROWS: "1" }, true), [0, 0]);
  },
});
