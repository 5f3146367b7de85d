// Visitor sessions on the WebSocket, over a real socket: subscribing to a job
// answers only its maker in private mode, anyone in shared mode. The job
// routes' side of sessions is tested in process in
// server/access/visitor_sessions_test.ts.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Job } from "../../shared/wire.ts";
import { uploadAndStart, waitForJob } from "../helpers/client.ts";
import { CookieJar, visitor } from "../helpers/cookie_jar.ts";
import { type RunningServer, serverTest } from "../helpers/server.ts";

const CSV = "ip,note\n8.8.8.8,a\n81.2.69.142,b\n10.0.0.1,c\n";

/** A completed job of the helpers' visitor (`visitor`). */
async function completedJob(server: RunningServer): Promise<Job> {
  const job = await uploadAndStart(server, "visitors.csv", CSV, "ip");
  const done = await waitForJob(server, job.id);
  assertEquals(done.status, "completed");
  return done;
}

/** The WebSocket answer to subscribing to `jobId` as `jar`'s visitor. */
async function subscribe(server: RunningServer, jar: CookieJar, jobId: number) {
  const ws = jar.webSocket(server.url.replace("http", "ws") + "/ws");
  const first = new Promise<{ type: string; message?: string }>(
    (resolve) => ws.onmessage = (e) => resolve(JSON.parse(e.data)),
  );
  await new Promise((resolve) => ws.onopen = resolve);
  ws.send(JSON.stringify({ type: "subscribe", jobId }));
  const message = await first;
  ws.close();
  return message;
}

serverTest("private mode: subscribing to another visitor's job is an error", {
  DNS_SERVERS: "127.0.0.1:9",
}, async (server) => {
  const job = await completedJob(server);
  assertEquals(
    (await subscribe(server, visitor, job.id)).type,
    "subscribed",
  );
  // Bob has a session of his own; the last jar none.
  const bob = new CookieJar();
  await (await bob.fetch(`${server.url}/api/config`)).body?.cancel();
  for (const jar of [bob, new CookieJar()]) {
    assertEquals(await subscribe(server, jar, job.id), {
      type: "error",
      message: `Job ${job.id} not found`,
    });
  }
});

serverTest("shared mode: anyone may subscribe to any job", {
  DNS_SERVERS: "127.0.0.1:9",
  JOBS_VISIBILITY: "shared",
}, async (server) => {
  const job = await completedJob(server);
  const bob = new CookieJar();
  await (await bob.fetch(`${server.url}/api/config`)).body?.cancel();
  assertEquals((await subscribe(server, bob, job.id)).type, "subscribed");
});
