import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { basicPassword, safeReturnPath } from "./access_lock.ts";

const basic = (text: string) =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`;

Deno.test("Basic: any user name, the password after the first colon", () => {
  assertEquals(basicPassword(basic("anyone:s3cret")), "s3cret");
  assertEquals(basicPassword(basic(":s3cret")), "s3cret");
  assertEquals(basicPassword(basic("me:pass:with:colons")), "pass:with:colons");
  assertEquals(basicPassword(basic("u:pässwörd")), "pässwörd"); // UTF-8
  assertEquals(basicPassword(basic("no colon")), undefined);
  assertEquals(basicPassword("Bearer abc"), undefined);
  assertEquals(basicPassword("Basic !!!"), undefined);
  assertEquals(basicPassword(undefined), undefined);
});

Deno.test("after sign-in only local paths are returned to", () => {
  assertEquals(
    safeReturnPath("/results/3?tab=preview"),
    "/results/3?tab=preview",
  );
  for (
    const outside of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "evil",
      "/\nLocation: x",
      "",
      undefined,
    ]
  ) {
    assertEquals(safeReturnPath(outside), "/", String(outside));
  }
});
