// What an operator reads from a running server: a listening line with an
// address to open, a line on SIGTERM and one when stopped, a line when each
// job starts and ends (never its file's name or addresses), and no runtime
// warnings in normal use (a request with a streamed body made Deno.serve
// warn about request.signal's legacy behaviour).
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  type RunningServer,
  serverTest,
  startServer,
} from "../helpers/server.ts";
import { NO_DNS } from "../helpers/http.ts";
import { postJson, startJob, uploadOk, waitForJob } from "../helpers/client.ts";

Deno.test({
  name: "the server says where it listens and when it stops, and no more",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ env: NO_DNS });
    const listening = server.output.find((l) => l.startsWith("listening on"));
    assertEquals(listening, `listening on ${server.url}`);
    // A body without a length, as a browser's streamed upload sends it.
    const body = new Blob([JSON.stringify(["8.8.8.8"])]).stream();
    const response = await fetch(`${server.url}/api/lookup/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assertEquals(response.status, 200);
    await response.body?.cancel();
    await server.stop();
    const after = server.output.slice(server.output.indexOf(listening!) + 1);
    assertEquals(after, [
      "SIGTERM: stopping; jobs in progress resume at the next start (chunks not done run again)",
      "stopped",
    ]);
    ok(!server.output.some((l) => l.includes("Deno.serve")));
  },
});

/** The server's first line matching `pattern`, once it has printed it. */
async function lineMatching(
  server: RunningServer,
  pattern: RegExp,
): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = server.output.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) {
      throw new Error(`no line ${pattern}:\n${server.output.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

serverTest(
  "each job's start and end are logged, without its file or addresses",
  { ...NO_DNS, LOG_LEVEL: "info" },
  async (server) => {
    const csv = "ip\n81.2.69.142\n8.8.8.8\nnot-an-address\n";
    const uploaded = await uploadOk(server, "private-visitors.csv", csv);
    const job = await startJob(server, uploaded, "ip", { includeDomain: 0 });
    assertEquals((await waitForJob(server, job.id)).status, "completed");
    match(
      await lineMatching(server, new RegExp(`^job ${job.id} started`)),
      new RegExp(
        `^job ${job.id} started: 3 rows \\(geolocation, company, network\\)$`,
      ),
    );
    match(
      await lineMatching(server, new RegExp(`^job ${job.id} completed`)),
      new RegExp(
        `^job ${job.id} completed: 3 of 3 rows in \\d+\\.\\d s ` +
          `\\(2 successful, 1 failed, 0 filtered\\)$`,
      ),
    );

    // A cancelled job says so, with the rows it keeps.
    const big = "ip\n" + "81.2.69.142\n".repeat(50_000);
    const second = await startJob(
      server,
      await uploadOk(server, "private-visitors-2.csv", big),
      "ip",
    );
    const cancel = await postJson(
      server,
      `/api/jobs/${second.id}/cancel`,
      {},
    );
    await cancel.body?.cancel();
    const ended = await waitForJob(server, second.id);
    const outcome = ended.status === "cancelled" ? "cancelled" : "completed";
    match(
      await lineMatching(server, new RegExp(`^job ${second.id} ${outcome}`)),
      new RegExp(
        `^job ${second.id} ${outcome}: ${ended.processedIPs} of ` +
          `${ended.totalIPs} rows in `,
      ),
    );
    const secret = /private-visitors|81\.2\.69\.142|8\.8\.8\.8|not-an-address/;
    ok(!server.output.some((l) => secret.test(l)), server.output.join("\n"));
  },
);

serverTest("LOG_LEVEL=warn leaves the job lines out", {
  ...NO_DNS,
  LOG_LEVEL: "warn",
}, async (server) => {
  const uploaded = await uploadOk(server, "a.csv", "ip\n81.2.69.142\n");
  const job = await startJob(server, uploaded, "ip", { includeDomain: 0 });
  assertEquals((await waitForJob(server, job.id)).status, "completed");
  await server.stop();
  ok(
    !server.output.some((l) => l.startsWith("job ")),
    server.output.join("\n"),
  );
});
