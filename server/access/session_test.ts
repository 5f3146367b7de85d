import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual,
  ok,
} from "node:assert/strict";
import { Hono } from "hono";
import { SESSION_COOKIE, VisitorSessions } from "./session.ts";

const SECRET = "a-test-secret-that-is-long-enough-1234";

function appWith(
  secret = SECRET,
  options: { trustProxy?: number; accessPassword?: string } = {},
) {
  const sessions = VisitorSessions.create(secret, {
    trustProxy: options.trustProxy ?? 0,
    accessPassword: options.accessPassword,
  });
  const app = new Hono();
  app.use("*", sessions.middleware());
  app.get(
    "/who",
    (c) =>
      c.json({ id: c.get("sessionId"), unlocked: c.get("sessionUnlocked") }),
  );
  app.get("/unlock", (c) => {
    sessions.issue(c, { id: c.get("sessionId"), unlocked: true });
    return c.body(null, 204);
  });
  return app;
}

/** The session cookie's value from a Set-Cookie header, and its attributes. */
function sessionCookie(response: Response) {
  const header = response.headers.get("set-cookie");
  if (header === null) return null;
  const [pair, ...attributes] = header.split(";").map((s) => s.trim());
  const [name, value] = [
    pair.slice(0, pair.indexOf("=")),
    pair.slice(pair.indexOf("=") + 1),
  ];
  assertEquals(name, SESSION_COOKIE);
  return { value, attributes: attributes.map((a) => a.toLowerCase()) };
}

async function who(
  app: Hono,
  init: RequestInit = {},
  url = "http://app.test/who",
) {
  const response = await app.request(url, init);
  const body = await response.json() as { id: string; unlocked: boolean };
  return { body, cookie: sessionCookie(response) };
}

const withCookie = (value: string) => ({
  headers: { Cookie: `${SESSION_COOKIE}=${value}` },
});

Deno.test("first contact sets an HttpOnly, SameSite=Lax, Path=/ session cookie", async () => {
  const app = appWith();
  const first = await who(app);
  ok(first.cookie, "a cookie was set");
  ok(/^[A-Za-z0-9_-]{22}$/.test(first.body.id));
  for (const attribute of ["httponly", "samesite=lax", "path=/"]) {
    ok(first.cookie.attributes.includes(attribute), attribute);
  }
  ok(first.cookie.attributes.some((a) => a.startsWith("max-age=")));
  ok(!first.cookie.attributes.includes("secure"), "plain HTTP: not Secure");
  // The cookie brings the same session back, and is not set again.
  const again = await who(app, withCookie(first.cookie.value));
  assertEquals(again.body.id, first.body.id);
  assertEquals(again.cookie, null);
  // Another visitor without the cookie is another session.
  notDeepStrictEqual((await who(app)).body.id, first.body.id);
});

Deno.test("Secure over HTTPS, and behind a trusted proxy that says https", async () => {
  const direct = await who(appWith(), {}, "https://app.test/who");
  ok(direct.cookie?.attributes.includes("secure"));
  const proxied = { headers: { "X-Forwarded-Proto": "https" } };
  const trusted = await who(appWith(SECRET, { trustProxy: 1 }), proxied);
  ok(trusted.cookie?.attributes.includes("secure"));
  // Without TRUST_PROXY the header is anyone's to send: ignored.
  const untrusted = await who(appWith(), proxied);
  ok(!untrusted.cookie?.attributes.includes("secure"));
});

Deno.test("a tampered or forged cookie is replaced by a new session", async () => {
  const app = appWith();
  const { body, cookie } = await who(app);
  const [id, mark, signature] = cookie!.value.split(".");
  const otherId = (id[0] === "A" ? "B" : "A") + id.slice(1);
  const flipped = signature.slice(0, -2) +
    (signature.at(-2) === "A" ? "B" : "A") + signature.at(-1);
  const forgedApp = appWith("another-secret-that-is-long-enough-999");
  const forged = (await who(forgedApp)).cookie!.value; // signed with another key
  for (
    const bad of [
      `${otherId}.${mark}.${signature}`, // someone else's id, our signature
      `${id}.${mark}.${flipped}`, // signature altered
      `${id}.${mark}`, // signature removed
      `${id}.unlockedmarkxxxxxxxxxx.${signature}`, // unlock mark added
      forged,
      "garbage",
    ]
  ) {
    const answer = await who(app, withCookie(bad));
    ok(answer.cookie, `a new cookie for ${bad}`);
    notDeepStrictEqual(answer.body.id, body.id);
    if (bad === forged) {
      notDeepStrictEqual(answer.body.id, forged.split(".")[0]);
    }
    assertEquals(answer.body.unlocked, false);
  }
});

Deno.test("replicas sharing the secret accept each other's cookies", async () => {
  const one = appWith();
  const two = appWith();
  const { body, cookie } = await who(one);
  const there = await who(two, withCookie(cookie!.value));
  assertEquals(there.body.id, body.id);
  assertEquals(there.cookie, null);
});

Deno.test("the unlocked mark keeps the session and ends when the password changes", async () => {
  const app = appWith(SECRET, { accessPassword: "open sesame" });
  const first = await who(app);
  const unlock = await app.request(
    "http://app.test/unlock",
    withCookie(first.cookie!.value),
  );
  const unlocked = sessionCookie(unlock)!.value;
  const after = await who(app, withCookie(unlocked));
  assertEquals(after.body, { id: first.body.id, unlocked: true });
  // Same secret, new password: still the same session, locked again.
  const changed = appWith(SECRET, { accessPassword: "new password" });
  assertEquals((await who(changed, withCookie(unlocked))).body, {
    id: first.body.id,
    unlocked: false,
  });
  // No password at all: nothing is unlocked (there is nothing to unlock).
  assertEquals(
    (await who(appWith(), withCookie(unlocked))).body.unlocked,
    false,
  );
});
