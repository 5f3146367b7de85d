// What an operator reads from a running server: a listening line with an
// address to open, a line on SIGTERM and one when stopped, and no runtime
// warnings in normal use (a request with a streamed body made Deno.serve
// warn about request.signal's legacy behaviour).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startServer } from "../helpers/server.ts";
import { NO_DNS } from "../helpers/http.ts";

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
      "SIGTERM: stopping; jobs in progress resume from their last checkpoint",
      "stopped",
    ]);
    ok(!server.output.some((l) => l.includes("Deno.serve")));
  },
});
