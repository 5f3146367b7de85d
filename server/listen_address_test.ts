import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { openableUrl } from "./listen_address.ts";

Deno.test("a server on every interface is shown as localhost", () => {
  assertEquals(openableUrl("0.0.0.0", 5000), "http://localhost:5000");
  assertEquals(openableUrl("::", 5000), "http://localhost:5000");
});

Deno.test("a server on one address is shown on it", () => {
  assertEquals(openableUrl("127.0.0.1", 8080), "http://127.0.0.1:8080");
  assertEquals(openableUrl("::1", 8080), "http://[::1]:8080");
});
