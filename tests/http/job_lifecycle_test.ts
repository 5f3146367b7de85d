// Cancel, failure and restart, and live updates over the WebSocket.
// Jobs are made slow by many distinct addresses asked of DNS one at a time,
// with one job at a time so a second job waits as pending.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { ServerMessage } from "../../shared/wire.ts";
import {
  downloadText,
  getJob,
  parseCsv,
  postJson,
  startJob,
  uploadOk,
  waitForJob,
} from "../helpers/client.ts";
import { startSlowDnsServer } from "../helpers/server_with_dns.ts";
import { visitor } from "../helpers/cookie_jar.ts";

const fixture = await startSlowDnsServer({ JOB_CONCURRENCY: "1" });
const { server } = fixture;

/** n rows of distinct addresses, each a DNS round trip, one at a time. */
function slowCsv(n: number): string {
  const rows = ["ip,n"];
  for (let i = 0; i < n; i++) {
    rows.push(`81.2.${(i >> 8) & 255}.${i & 255},${i}`);
  }
  return rows.join("\n") + "\n";
}

class Socket {
  messages: ServerMessage[] = [];
  ws: WebSocket;
  opened: Promise<void>;
  constructor(url: string) {
    // As the visitor whose jobs it subscribes to.
    this.ws = visitor.webSocket(url.replace("http", "ws") + "/ws");
    this.ws.onmessage = (event) => this.messages.push(JSON.parse(event.data));
    this.opened = new Promise((resolve) => this.ws.onopen = () => resolve());
  }
  async waitFor(test: (m: ServerMessage) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.messages.find(test);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no such message in ${JSON.stringify(this.messages)}`);
  }
  close() {
    this.ws.close();
  }
}

Deno.test({
  name: "job lifecycle",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const slow = await uploadOk(server, "slow.csv", slowCsv(60_000));
    const second = "ip,n\n8.8.8.8,1\n1.1.1.1,2\n";
    const other = await uploadOk(server, "second.csv", second);
    const socket = new Socket(server.url);
    await socket.opened;

    const running = await startJob(server, slow, "ip", { includeDomain: 1 });
    const waiting = await startJob(server, other, "ip", { includeDomain: 1 });

    await t.step(
      "malformed WebSocket messages get an error, not a closed socket",
      async () => {
        socket.ws.send("not json");
        socket.ws.send(JSON.stringify({ type: "dance" }));
        socket.ws.send("x".repeat(10_000));
        socket.ws.send(JSON.stringify({ type: "subscribe", jobId: 99999 }));
        socket.ws.send(JSON.stringify({ type: "subscribe", jobId: "abc" }));
        await socket.waitFor((m) =>
          m.type === "error" && /99999/.test(m.message)
        );
        const errors = socket.messages.filter((m) => m.type === "error");
        assertEquals(errors.length, 5);
        assertEquals(socket.ws.readyState, WebSocket.OPEN);
      },
    );

    await t.step(
      "subscribers get jobUpdate messages while the job runs",
      async () => {
        socket.messages = [];
        socket.ws.send(
          JSON.stringify({ type: "subscribe", jobId: running.id }),
        );
        await socket.waitFor((m) =>
          m.type === "subscribed" && m.jobId === running.id
        );
        await socket.waitFor((m) =>
          m.type === "jobUpdate" && m.data.job.processedIPs > 0
        );
        // Progress commits every 100 rows (many a second here), but updates
        // are sent at most once per 250 ms: three more take at least 500 ms.
        const from = socket.messages.length;
        const started = performance.now();
        const more = () =>
          socket.messages.slice(from).filter((m) => m.type === "jobUpdate");
        await socket.waitFor(() => more().length >= 3, 30_000);
        const took = performance.now() - started;
        ok(took >= 450, `3 updates in ${took.toFixed(0)} ms`);
        const updates = socket.messages.filter((m) => m.type === "jobUpdate");
        ok(
          updates.every((m) =>
            m.type === "jobUpdate" && m.jobId === running.id
          ),
        );
      },
    );

    await t.step("the second job waits while one job runs", async () => {
      assertEquals((await getJob(server, waiting.id)).status, "pending");
      // Its file disappears before it starts: it will fail.
      await Deno.rename(
        join(server.dataDir, "uploads", other.fileName),
        join(server.dataDir, "held.csv"),
      );
    });

    await t.step(
      "cancel stops a running job and keeps its rows",
      async () => {
        await waitForJob(server, running.id, (job) => job.processedIPs >= 100);
        const response = await postJson(
          server,
          `/api/jobs/${running.id}/cancel`,
          "",
        );
        assertEquals(response.status, 200);
        assertEquals(await response.json(), {
          message: "The job has been canceled successfully.",
        });
        const stopped = await waitForJob(
          server,
          running.id,
          (job) => job.status === "cancelled",
        );
        ok(stopped.completedAt);
        await new Promise((r) => setTimeout(r, 500));
        assertEquals(
          (await getJob(server, running.id)).processedIPs,
          stopped.processedIPs,
        );
        ok(stopped.processedIPs < 60_000);
        // Whole chunks only: the download holds every row counted.
        const rows = parseCsv(await downloadText(server, running.id));
        assertEquals(
          rows.length - 1,
          stopped.processedIPs - stopped.filteredIPs,
        );
        const final = await socket.waitFor((m) =>
          m.type === "jobUpdate" && m.data.status === "cancelled"
        );
        ok(final);
        const again = await postJson(
          server,
          `/api/jobs/${running.id}/cancel`,
          "",
        );
        assertEquals(again.status, 409);
        const restart = await postJson(
          server,
          `/api/jobs/${running.id}/restart`,
          "",
        );
        assertEquals(restart.status, 409, "a cancelled job cannot be resumed");
      },
    );

    await t.step(
      "a job whose file is gone fails with a clear error",
      async () => {
        const failed = await waitForJob(server, waiting.id);
        assertEquals(failed.status, "failed");
        match(failed.error ?? "", /no longer available/);
      },
    );

    await t.step("restart runs a failed job again", async () => {
      await Deno.rename(
        join(server.dataDir, "held.csv"),
        join(server.dataDir, "uploads", other.fileName),
      );
      const response = await postJson(
        server,
        `/api/jobs/${waiting.id}/restart`,
        "",
      );
      assertEquals(response.status, 200);
      match((await response.json()).message, /restarted/);
      const done = await waitForJob(server, waiting.id);
      assertEquals(done.status, "completed");
      assertEquals(done.processedIPs, 2);
      assertEquals(done.error, null);
    });

    socket.close();
  },
});

addEventListener("unload", () => fixture.stop());
