// The job routes in process (createApp(deps).request): validation, ids,
// cancel and restart answers. Jobs that run are tested against a real
// server in tests/http/jobs_test.ts.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { Job, UploadResult } from "../../shared/wire.ts";
import {
  jsonRequest,
  routes,
  startTestApp,
  type TestApp,
  uploadRequest,
} from "../../tests/helpers/test_app.ts";

const CSV = "ip_address,client_id\n8.8.8.8,1\n10.0.0.1,2\n";

async function withUpload(
  fn: (test: TestApp, uploaded: UploadResult) => Promise<void>,
) {
  const test = await startTestApp();
  try {
    const response = await test.app.request(
      "/api/upload",
      uploadRequest("visitors.csv", CSV),
    );
    assertEquals(response.status, 201);
    await fn(test, await response.json());
  } finally {
    await test.close();
  }
}

/** A 4xx answer with a one-line { message } and nothing else. */
async function assertCleanError(response: Response, what: string) {
  ok(
    response.status >= 400 && response.status < 500,
    `${what}: ${response.status}`,
  );
  const body = await response.json();
  assertEquals(typeof body.message, "string", what);
  ok(!/at .*\.ts:\d+/.test(body.message), `${what}: a stack trace`);
}

Deno.test("enrich validates its input", async () => {
  await withUpload(async ({ app }, uploaded) => {
    const cases: [unknown, number, RegExp][] = [
      ["{not json", 400, /not valid JSON/],
      ["", 400, /empty/],
      [{ ipColumnName: "ip_address" }, 400, /fileName/],
      [
        { fileName: "../etc/passwd", ipColumnName: "ip_address" },
        400,
        /without any path/,
      ],
      [
        {
          fileName: `${crypto.randomUUID()}.csv`,
          ipColumnName: "ip_address",
        },
        404,
        /not found/,
      ],
      [
        { fileName: uploaded.fileName, ipColumnName: "nope" },
        400,
        /not in the file's header/,
      ],
      [
        { fileName: uploaded.fileName, ipColumnName: "" },
        400,
        /select the column/,
      ],
      [
        {
          fileName: uploaded.fileName,
          ipColumnName: "ip_address",
          includeDomain: "yes",
        },
        400,
        /^includeDomain: Invalid input$/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const response = await app.request("/api/enrich", jsonRequest(body));
      assertEquals(response.status, status, JSON.stringify(body));
      match((await response.json()).message, message);
    }
  });
});

Deno.test("enrich takes a JSON body whatever its Content-Type", async () => {
  await withUpload(async ({ app, deps }, uploaded) => {
    const body = JSON.stringify({
      fileName: uploaded.fileName,
      ipColumnName: "ip_address",
      includeDomain: 0,
    });
    const response = await app.request("/api/enrich", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    assertEquals(response.status, 201);
    const job: Job = await response.json();
    assertEquals(job.status, "pending");
    assertEquals(job.totalIPs, 2);
    assertEquals(job.includeDomain, false);
    assertEquals(job.includeGeolocation, true);
    assertEquals((await deps.store.getJob(job.id))?.ipColumnName, "ip_address");
  });
});

Deno.test("a body over the cap is refused with 413", async () => {
  await withUpload(async ({ app }) => {
    const huge = JSON.stringify({ fileName: "x".repeat(2 * 1024 * 1024) });
    const response = await app.request("/api/enrich", jsonRequest(huge));
    assertEquals(response.status, 413);
    match((await response.json()).message, /larger than 1048576 bytes/);
  });
});

Deno.test("job ids: 1e9, -1, abc, huge, unknown", async () => {
  await withUpload(async ({ app }, uploaded) => {
    for (
      const id of [
        "1e9",
        "-1",
        "abc",
        "0",
        "1.0",
        "99999999999999999999",
        "%00",
        "1;DROP TABLE jobs",
      ]
    ) {
      for (
        const [method, suffix] of routes(
          "GET ",
          "GET /preview",
          "GET /recent-results",
          "GET /download",
          "POST /cancel",
          "POST /restart",
        )
      ) {
        const what = `${method} ${id}${suffix}`;
        const response = await app.request(
          `/api/jobs/${encodeURIComponent(id)}${suffix}`,
          { method },
        );
        assertEquals(response.status, 400, what);
        await assertCleanError(response, what);
      }
    }
    for (
      const [method, suffix] of routes(
        "GET ",
        "GET /preview",
        "POST /cancel",
        "POST /restart",
      )
    ) {
      const unknown = await app.request(`/api/jobs/123456${suffix}`, {
        method,
      });
      assertEquals(unknown.status, 404, suffix);
      match((await unknown.json()).message, /Job 123456 not found/);
    }

    const created = await app.request(
      "/api/enrich",
      jsonRequest({ fileName: uploaded.fileName, ipColumnName: "ip_address" }),
    );
    const job: Job = await created.json();
    for (
      const query of [
        "page=1e9",
        "limit=-5",
        "limit=abc",
        "page=99999999999999999999",
      ]
    ) {
      const response = await app.request(
        `/api/jobs/${job.id}/preview?${query}`,
      );
      assertEquals(response.status, 400, query);
      await assertCleanError(response, query);
    }
    for (const query of ["since=-1", "limit=100000", "since=abc"]) {
      const response = await app.request(
        `/api/jobs/${job.id}/recent-results?${query}`,
      );
      assertEquals(response.status, 400, query);
      await assertCleanError(response, query);
    }
  });
});

Deno.test("cancel and restart refuse a job that has ended", async () => {
  await withUpload(async ({ app, deps }, uploaded) => {
    const created = await app.request(
      "/api/enrich",
      jsonRequest({
        fileName: uploaded.fileName,
        ipColumnName: "ip_address",
        includeDomain: 0,
      }),
    );
    const job: Job = await created.json();
    const deadline = Date.now() + 60_000;
    while ((await deps.store.getJob(job.id))?.status !== "completed") {
      ok(Date.now() < deadline, "the job did not complete");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (
      const [action, refusal] of [
        [
          "restart",
          /^Only failed jobs can be restarted; this job is completed$/,
        ],
        [
          "cancel",
          /^Only pending or processing jobs can be cancelled; this job is completed$/,
        ],
      ] as const
    ) {
      const response = await app.request(`/api/jobs/${job.id}/${action}`, {
        method: "POST",
      });
      assertEquals(response.status, 409, action);
      match((await response.json()).message, refusal);
    }
  });
});

Deno.test("a job and its upload are their session's: others get 404", async () => {
  await withUpload(async ({ app, hono }, uploaded) => {
    // `hono` sends no cookie: each call is a new visitor.
    const stolen = await hono.request(
      "/api/enrich",
      jsonRequest({ fileName: uploaded.fileName, ipColumnName: "ip_address" }),
    );
    assertEquals(stolen.status, 404);
    match((await stolen.json()).message, /upload was not found/);

    const created = await app.request(
      "/api/enrich",
      jsonRequest({ fileName: uploaded.fileName, ipColumnName: "ip_address" }),
    );
    const job: Job = await created.json();
    const own = await app.request(`/api/jobs/${job.id}`);
    assertEquals(own.status, 200);
    ok(!("owner" in await own.json()), "the owner stays on the server");
    const other = await hono.request(`/api/jobs/${job.id}`);
    assertEquals(other.status, 404);
    assertEquals(await other.json(), { message: `Job ${job.id} not found` });
    assertEquals(await (await hono.request("/api/jobs")).json(), []);
    const mine = await (await app.request("/api/jobs")).json() as Job[];
    assertEquals(mine.map((j) => j.id), [job.id]);
  });
});
