// Log lines as the console prints them, in a process of their own: request
// values are not format strings and their control characters are escaped.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { escapeControl, logText } from "./log.ts";

Deno.test("control characters are written as escapes", () => {
  assertEquals(
    escapeControl("/\n2026-11-25 ADMIN LOGIN OK\r\t\x1b[31m\u2028"),
    "/\\n2026-11-25 ADMIN LOGIN OK\\r\\t\\u001b[31m\\u2028",
  );
  assertEquals(escapeControl("plain text, ünïcode"), "plain text, ünïcode");
});

Deno.test("an error keeps its stack frames, its message is escaped", () => {
  const text = logText(["GET", "/x", new Error("bad\nFAKE LINE")]);
  match(text, /^GET \/x Error: bad\\nFAKE LINE\n {4}at /);
  ok(!text.split("\n").some((line) => line.startsWith("FAKE")), text);
});

Deno.test("logError prints a request path with %c and %f as it is", async () => {
  const script = `
    import { logError } from ${JSON.stringify(import.meta.resolve("./log.ts"))};
    logError("GET", "/%c%f%s%o\\n2026-11-25 ADMIN LOGIN OK", "failed:", 42);
  `;
  const { stderr, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(stdout), "");
  assertEquals(
    new TextDecoder().decode(stderr),
    "GET /%c%f%s%o\\n2026-11-25 ADMIN LOGIN OK failed: 42\n",
  );
});
