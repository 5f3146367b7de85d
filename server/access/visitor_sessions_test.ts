// Visitor sessions through the real app in process (startTestApp): two
// cookie jars (two visitors) and no cookie at all. A job is its maker's:
// every job route, the download, the preview and "clear completed" answer
// anyone else as if it did not exist. Then forged and tampered cookies, the
// secret kept across a restart, and shared mode. The WebSocket's side is
// tested over a real socket in tests/http/sessions_test.ts.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { Job, UploadResult } from "../../shared/wire.ts";
import {
  type RequestClient,
  startTestApp,
  uploadRequest,
  withCookieJar,
} from "../../tests/helpers/test_app.ts";

const CSV = "ip,note\n8.8.8.8,a\n81.2.69.142,b\n10.0.0.1,c\n";

async function upload(jar: RequestClient) {
  const response = await jar.request(
    "/api/upload",
    uploadRequest("visitors.csv", CSV),
  );
  assertEquals(response.status, 201);
  return await response.json() as UploadResult;
}

function enrich(jar: RequestClient, fileName: string) {
  return jar.request("/api/enrich", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fileName, ipColumnName: "ip" }),
  });
}

async function completedJob(jar: RequestClient) {
  const response = await enrich(jar, (await upload(jar)).fileName);
  assertEquals(response.status, 201);
  const { id } = await response.json() as Job;
  for (let i = 0; i < 600; i++) {
    const job = await (await jar.request(`/api/jobs/${id}`)).json();
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

async function status(jar: RequestClient, path: string, method = "GET") {
  const response = await jar.request(path, { method });
  const text = await response.text();
  return { status: response.status, text };
}

Deno.test({
  name: "private mode: a visitor's jobs are invisible to everyone else",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-sessions-" });
    let test = await startTestApp({}, { dataDir });
    const alice = withCookieJar(test.hono);
    const bob = withCookieJar(test.hono);
    // No cookie: each call a new visitor.
    const app = test.hono;
    const nobody: RequestClient = {
      request: async (path, init) => await app.request(path, init),
    };
    try {
      const job = await completedJob(alice);

      await t.step("the session cookie's attributes", async () => {
        const response = await nobody.request("/api/config");
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
          const list = async (jar: RequestClient) =>
            (await (await jar.request("/api/jobs")).json() as Job[])
              .map((j) => j.id);
          assertEquals(await list(alice), [job.id]);
          assertEquals(await list(bob), []);
          assertEquals(await list(nobody), []);
          const listed = await (await alice.request("/api/jobs")).json();
          ok(!("owner" in listed[0]), "the owner is never on the wire");
        },
      );

      await t.step(
        "every job route 404s for another visitor and for none",
        async () => {
          for (const [method, path] of jobRoutes(job.id)) {
            for (const jar of [bob, nobody]) {
              const answer = await status(jar, path, method);
              assertEquals(answer.status, 404, `${method} ${path}`);
              assertEquals(
                JSON.parse(answer.text).message,
                `Job ${job.id} not found`,
              );
            }
            // The owner gets the job (a completed one cannot be cancelled
            // or restarted: 409, not 404).
            const own = await status(alice, path, method);
            assertEquals(own.status, method === "POST" ? 409 : 200, path);
          }
          const preview =
            await (await alice.request(`/api/jobs/${job.id}/preview`)).json();
          assertEquals(preview.totalResults, 3);
        },
      );

      await t.step(
        "an upload's name is usable only by its uploader",
        async () => {
          const uploaded = await upload(alice);
          const stolen = await enrich(bob, uploaded.fileName);
          assertEquals(stolen.status, 404);
          match((await stolen.json()).message, /upload was not found/);
        },
      );

      await t.step(
        "forged and tampered cookies get a new session",
        async () => {
          const forged = `session=${"A".repeat(22)}.-.${"B".repeat(43)}`;
          const session = alice.cookies.get("session")!;
          const [id, mark, signature] = session.split(".");
          const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
          const tampered = [
            `session=${flip(id)}.${mark}.${signature}`,
            `session=${id}.${mark}.${flip(signature)}`,
          ];
          for (const cookie of [forged, ...tampered]) {
            const response = await nobody.request(`/api/jobs/${job.id}`, {
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
          const bobs = await completedJob(bob);
          const clear = (jar: RequestClient) =>
            jar.request("/api/jobs/completed", { method: "DELETE" })
              .then((r) => r.json());
          assertEquals(await clear(bob), { cleared: 1 });
          assertEquals(
            (await status(alice, `/api/jobs/${job.id}`)).status,
            200,
          );
          assertEquals((await status(bob, `/api/jobs/${bobs.id}`)).status, 404);
        },
      );

      await t.step(
        "sessions outlive a restart (the secret is kept)",
        async () => {
          // The same data directory opened again, as a restarted server.
          await test.close();
          test = await startTestApp({}, { dataDir });
          const cookies = (jar: typeof alice) => ({
            headers: {
              cookie: `session=${jar.cookies.get("session")}`,
            },
          });
          const own = await test.hono.request(
            `/api/jobs/${job.id}`,
            cookies(alice),
          );
          await own.body?.cancel();
          assertEquals(own.status, 200);
          const other = await test.hono.request(
            `/api/jobs/${job.id}`,
            cookies(bob),
          );
          await other.body?.cancel();
          assertEquals(other.status, 404);
        },
      );
    } finally {
      await test.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "shared mode: every visitor sees and acts on every job",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const test = await startTestApp({ JOBS_VISIBILITY: "shared" });
    try {
      const alice = withCookieJar(test.hono);
      const bob = withCookieJar(test.hono);
      const job = await completedJob(alice);
      const ids = (await (await bob.request("/api/jobs")).json())
        .map((j: Job) => j.id);
      assertEquals(ids, [job.id]);
      for (const [method, path] of jobRoutes(job.id)) {
        const answer = await status(bob, path, method);
        assertEquals(answer.status, method === "POST" ? 409 : 200, path);
      }
      // Upload names stay their uploader's even here.
      const uploaded = await upload(alice);
      assertEquals((await enrich(bob, uploaded.fileName)).status, 404);
      const cleared = await bob.request("/api/jobs/completed", {
        method: "DELETE",
      });
      assertEquals(await cleared.json(), { cleared: 1 });
    } finally {
      await test.close();
    }
  },
});
