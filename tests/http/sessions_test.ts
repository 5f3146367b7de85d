// Visitor sessions over HTTP against the real server: two cookie jars (two
// visitors) and no cookie at all. A job is its maker's: every job route, the
// download, the preview, the live feed, the WebSocket and "clear completed"
// answer anyone else as if it did not exist. Then forged and tampered
// cookies, the secret kept across a restart, and shared mode.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { Job, UploadResult } from "../../shared/wire.ts";
import { CookieJar } from "../helpers/cookie_jar.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

const CSV = "ip,note\n8.8.8.8,a\n81.2.69.142,b\n10.0.0.1,c\n";
// SESSION_SECRET empty: the server generates one into its data directory.
const ENV = { SESSION_SECRET: "", DNS_SERVERS: "127.0.0.1:9" };

async function upload(server: RunningServer, jar: CookieJar) {
  const form = new FormData();
  form.append("file", new Blob([CSV]), "visitors.csv");
  const response = await jar.fetch(`${server.url}/api/upload`, {
    method: "POST",
    body: form,
  });
  assertEquals(response.status, 201);
  return await response.json() as UploadResult;
}

function enrich(server: RunningServer, jar: CookieJar, fileName: string) {
  return jar.fetch(`${server.url}/api/enrich`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fileName, ipColumnName: "ip" }),
  });
}

async function completedJob(server: RunningServer, jar: CookieJar) {
  const response = await enrich(
    server,
    jar,
    (await upload(server, jar)).fileName,
  );
  assertEquals(response.status, 201);
  const { id } = await response.json() as Job;
  for (let i = 0; i < 600; i++) {
    const job = await (await jar.fetch(`${server.url}/api/jobs/${id}`)).json();
    if (job.status === "completed") return job as Job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not complete`);
}

/** Every job route as [method, path]. */
const jobRoutes = (id: number): [string, string][] => [
  ["GET", `/api/jobs/${id}`],
  ["GET", `/api/jobs/${id}/preview`],
  ["GET", `/api/jobs/${id}/recent-results`],
  ["GET", `/api/jobs/${id}/summary`],
  ["GET", `/api/jobs/${id}/download`],
  ["GET", `/api/jobs/${id}/download?format=xlsx`],
  ["POST", `/api/jobs/${id}/cancel`],
  ["POST", `/api/jobs/${id}/restart`],
];

async function status(jar: CookieJar, url: string, method = "GET") {
  const response = await jar.fetch(url, { method });
  const text = await response.text();
  return { status: response.status, text };
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

Deno.test({
  name: "private mode: a visitor's jobs are invisible to everyone else",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const server = await startServer({ env: ENV, keepDataDir: true });
    const alice = new CookieJar();
    const bob = new CookieJar();
    try {
      const job = await completedJob(server, alice);
      const url = (path: string) => `${server.url}${path}`;

      await t.step("the session cookie's attributes", async () => {
        const response = await new CookieJar().fetch(url("/api/config"));
        await response.body?.cancel();
        const cookie = response.headers.getSetCookie()[0];
        match(cookie, /^session=[\w-]{22}\.-\.[\w-]+;/);
        for (const part of [/HttpOnly/, /SameSite=Lax/, /Path=\//]) {
          match(cookie, part);
        }
        ok(!/Secure/.test(cookie), "Secure only over HTTPS");
      });

      await t.step(
        "listing: each jar sees its own, no cookie sees none",
        async () => {
          const list = async (jar: CookieJar) =>
            (await (await jar.fetch(url("/api/jobs"))).json() as Job[])
              .map((j) => j.id);
          assertEquals(await list(alice), [job.id]);
          assertEquals(await list(bob), []);
          assertEquals(await list(new CookieJar()), []);
          const listed = await (await alice.fetch(url("/api/jobs"))).json();
          ok(!("owner" in listed[0]), "the owner is never on the wire");
        },
      );

      await t.step(
        "every job route 404s for another visitor and for none",
        async () => {
          for (const [method, path] of jobRoutes(job.id)) {
            for (const jar of [bob, new CookieJar()]) {
              const answer = await status(jar, url(path), method);
              assertEquals(answer.status, 404, `${method} ${path}`);
              assertEquals(
                JSON.parse(answer.text).message,
                `Job ${job.id} not found`,
              );
            }
            // The owner gets the job (a completed one cannot be cancelled
            // or restarted: 409, not 404).
            const own = await status(alice, url(path), method);
            assertEquals(own.status, method === "POST" ? 409 : 200, path);
          }
          const preview =
            await (await alice.fetch(url(`/api/jobs/${job.id}/preview`)))
              .json();
          assertEquals(preview.totalResults, 3);
        },
      );

      await t.step(
        "an upload's name is usable only by its uploader",
        async () => {
          const uploaded = await upload(server, alice);
          const stolen = await enrich(server, bob, uploaded.fileName);
          assertEquals(stolen.status, 404);
          match((await stolen.json()).message, /upload was not found/);
        },
      );

      await t.step(
        "WebSocket subscribe: an error for the other visitor",
        async () => {
          assertEquals(
            (await subscribe(server, alice, job.id)).type,
            "subscribed",
          );
          for (const jar of [bob, new CookieJar()]) {
            assertEquals(await subscribe(server, jar, job.id), {
              type: "error",
              message: `Job ${job.id} not found`,
            });
          }
        },
      );

      await t.step(
        "forged and tampered cookies get a new session",
        async () => {
          const forged = `session=${"A".repeat(22)}.-.${"B".repeat(43)}`;
          const session = alice.session!;
          const [id, mark, signature] = session.split(".");
          const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
          const tampered = [
            `session=${flip(id)}.${mark}.${signature}`,
            `session=${id}.${mark}.${flip(signature)}`,
          ];
          for (const cookie of [forged, ...tampered]) {
            const response = await fetch(url(`/api/jobs/${job.id}`), {
              headers: { cookie },
            });
            await response.body?.cancel();
            assertEquals(response.status, 404, cookie);
            const issued = response.headers.getSetCookie()[0] ?? "";
            match(issued, /^session=/, "a fresh session replaces it");
            ok(!issued.startsWith(`session=${id}.`));
          }
        },
      );

      await t.step(
        "clear completed clears only the caller's jobs",
        async () => {
          const bobs = await completedJob(server, bob);
          const clear = (jar: CookieJar) =>
            jar.fetch(url("/api/jobs/completed"), { method: "DELETE" })
              .then((r) => r.json());
          assertEquals(await clear(bob), { cleared: 1 });
          assertEquals(
            (await status(alice, url(`/api/jobs/${job.id}`))).status,
            200,
          );
          assertEquals(
            (await status(bob, url(`/api/jobs/${bobs.id}`))).status,
            404,
          );
        },
      );

      await t.step(
        "sessions outlive a restart (the secret is kept)",
        async () => {
          await server.stop();
          const again = await startServer({
            env: ENV,
            dataDir: server.dataDir,
          });
          try {
            const answer = await status(
              alice,
              `${again.url}/api/jobs/${job.id}`,
            );
            assertEquals(answer.status, 200);
            assertEquals(
              (await status(bob, `${again.url}/api/jobs/${job.id}`)).status,
              404,
            );
          } finally {
            await again.stop();
          }
        },
      );
    } finally {
      await server.stop();
      await Deno.remove(server.dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "shared mode: every visitor sees and acts on every job",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({
      env: { ...ENV, JOBS_VISIBILITY: "shared" },
    });
    try {
      const alice = new CookieJar();
      const bob = new CookieJar();
      const job = await completedJob(server, alice);
      const ids = (await (await bob.fetch(`${server.url}/api/jobs`)).json())
        .map((j: Job) => j.id);
      assertEquals(ids, [job.id]);
      for (const [method, path] of jobRoutes(job.id)) {
        const answer = await status(bob, `${server.url}${path}`, method);
        assertEquals(answer.status, method === "POST" ? 409 : 200, path);
      }
      assertEquals((await subscribe(server, bob, job.id)).type, "subscribed");
      // Upload names stay their uploader's even here.
      const uploaded = await upload(server, alice);
      assertEquals((await enrich(server, bob, uploaded.fileName)).status, 404);
      const cleared = await bob.fetch(`${server.url}/api/jobs/completed`, {
        method: "DELETE",
      });
      assertEquals(await cleared.json(), { cleared: 1 });
    } finally {
      await server.stop();
    }
  },
});
