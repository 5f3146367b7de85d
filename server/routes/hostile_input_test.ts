// Hostile input to the routes, through the real app in process: wrong types,
// huge bodies, path traversal. Each gets a 4xx with a message (never a 500
// or a stack trace). What needs a real socket or process (WebSocket abuse,
// idle sockets, huge uploads and memory, the log) is in
// tests/http/hostile_input_test.ts.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { UploadResult } from "../../shared/wire.ts";
import { answerOf } from "../../tests/helpers/http.ts";
import {
  startTestApp,
  type TestApp,
  uploadRequest,
} from "../../tests/helpers/test_app.ts";

function assertCleanError(status: number, body: unknown, what: string) {
  ok(status >= 400 && status < 500, `${what}: status ${status}`);
  const text = JSON.stringify(body);
  ok(
    typeof (body as { message?: unknown }).message === "string",
    `${what}: ${text}`,
  );
  ok(
    !/\bat \S+ \(|file:\/\/|\.ts:\d+/.test(text),
    `${what}: stack trace in ${text}`,
  );
}

async function call(
  test: TestApp,
  method: string,
  path: string,
  body?: string,
  type = "application/json",
) {
  return answerOf(
    await test.app.request(path, {
      method,
      headers: body === undefined ? {} : { "content-type": type },
      body,
    }),
  );
}

Deno.test({
  name: "hostile input",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const test = await startTestApp({ MAX_UPLOAD_MB: "10" });
    try {
      const sent = await test.app.request(
        "/api/upload",
        uploadRequest("ok.csv", "ip\n8.8.8.8\n"),
      );
      assertEquals(sent.status, 201);
      const uploaded = await sent.json() as UploadResult;

      await t.step(
        "JSON routes: wrong types, missing fields, huge bodies",
        async () => {
          const bodies: [string, string][] = [
            ["empty", ""],
            ["not JSON", "{"],
            ["null", "null"],
            ["array", "[1,2]"],
            ["number", "42"],
            [
              "fileName number",
              JSON.stringify({ fileName: 5, ipColumnName: "ip" }),
            ],
            [
              "column object",
              JSON.stringify({
                fileName: uploaded.fileName,
                ipColumnName: { a: 1 },
              }),
            ],
            [
              "flag string",
              JSON.stringify({
                fileName: uploaded.fileName,
                ipColumnName: "ip",
                includeGeolocation: "1",
              }),
            ],
            [
              "flag 2",
              JSON.stringify({
                fileName: uploaded.fileName,
                ipColumnName: "ip",
                includeNetwork: 2,
              }),
            ],
            ["huge", JSON.stringify({ fileName: "x".repeat(3 * 1024 * 1024) })],
            ["deep", "[".repeat(100_000) + "]".repeat(100_000)],
          ];
          for (const [what, body] of bodies) {
            const response = await call(test, "POST", "/api/enrich", body);
            assertCleanError(response.status, response.body, what);
          }
          const wrongType = await call(
            test,
            "POST",
            "/api/enrich",
            "fileName=x",
            "application/x-www-form-urlencoded",
          );
          assertCleanError(wrongType.status, wrongType.body, "form body");
        },
      );

      await t.step("a chunked body is not read past the cap", async () => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent > 50 * 1024 * 1024) return controller.close();
            const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        });
        const response = await test.app.request("/api/enrich", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        assertEquals(response.status, 413);
        await response.body?.cancel();
        ok(sent < 20 * 1024 * 1024, `the app read ${sent} bytes`);
      });

      await t.step(
        "path traversal through fileName reaches nothing",
        async () => {
          const names = [
            "../../../etc/passwd",
            "/etc/passwd",
            "..%2F..%2Fetc%2Fpasswd",
            "%2e%2e/%2e%2e/etc/passwd",
            "..\\..\\deno.json",
            "C:\\Windows\\win.ini",
            `${uploaded.fileName}/../../deno.json`,
            `uploads/${uploaded.fileName}`,
            "enrichment.db",
            "../enrichment.db",
            `${uploaded.fileName}\u0000.csv`,
          ];
          for (const fileName of names) {
            const response = await call(
              test,
              "POST",
              "/api/enrich",
              JSON.stringify({ fileName, ipColumnName: "ip" }),
            );
            assertCleanError(response.status, response.body, fileName);
          }
        },
      );

      await t.step("static paths stay inside the web bundle", async () => {
        for (
          const path of [
            "/../../etc/passwd",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/assets/..%2f..%2f..%2fdeno.json",
            "/..%2f..%2fserver%2fmain.ts",
            "/%2e%2e%2f%2e%2e%2fdeno.json",
          ]
        ) {
          const response = await test.app.request(path);
          const text = await response.text();
          ok(!text.includes("root:x:0:0"), path);
          ok(!text.includes('"nodeModulesDir"'), path);
          ok(!text.includes("Deno.serve"), path);
        }
      });

      await t.step("security headers on pages and API answers", async () => {
        for (const path of ["/", "/api/jobs", "/api/nothing"]) {
          const response = await test.app.request(path);
          await response.body?.cancel();
          const csp = response.headers.get("content-security-policy") ?? "";
          match(csp, /default-src 'self'/, path);
          match(csp, /frame-ancestors 'none'/, path);
          assertEquals(
            response.headers.get("x-content-type-options"),
            "nosniff",
            path,
          );
          assertEquals(response.headers.get("x-frame-options"), "DENY", path);
        }
      });
    } finally {
      await test.close();
    }
  },
});
