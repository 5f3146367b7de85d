import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { base64url, Signer } from "./signing.ts";

const SECRET = "a-session-secret-long-enough-for-tests-0123";

Deno.test("signatures are Web Crypto's HMAC-SHA256: cookies signed before stay valid", async () => {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signer = new Signer(SECRET);
  for (const value of ["", "abc.-", "unlock\0pässword", "x".repeat(500)]) {
    const webCrypto = base64url(
      new Uint8Array(
        await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(value)),
      ),
    );
    assertEquals(signer.sign(value), webCrypto);
    assertEquals(signer.verify(value, webCrypto), true);
  }
});

Deno.test("a signature of another value, key or length is refused", () => {
  const signer = new Signer(SECRET);
  const good = signer.sign("id.-");
  assertEquals(signer.verify("id.u", good), false);
  assertEquals(new Signer(`${SECRET}!`).verify("id.-", good), false);
  assertEquals(signer.verify("id.-", good.slice(0, -2)), false);
  assertEquals(signer.verify("id.-", `${good}AA`), false);
  assertEquals(signer.verify("id.-", "not base64url!"), false);
});
