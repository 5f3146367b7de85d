// The whole access policy in front of stand-in routes laid out like the
// real app's (a sub-app under /api, pages and /ws at the root).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Hono } from "hono";
import { loadAccessConfig } from "./access_config.ts";
import { createAccess } from "./install_access.ts";
import { SESSION_COOKIE } from "./session.ts";
import { routes } from "../../tests/helpers/test_app.ts";

const PASSWORD = "correct horse battery";

async function appWith(env: Record<string, string>, webDir?: string) {
  const dataDir = await Deno.makeTempDir();
  const access = await createAccess(loadAccessConfig(env), {
    dataDir,
    trustProxy: 0,
    webDir,
  });
  const app = new Hono();
  access.install(app);
  const api = new Hono();
  const echo = (c: import("hono").Context) =>
    c.json({
      route: `${c.req.method} ${c.req.path}`,
      session: c.get("sessionId") ?? null,
    });
  for (
    const path of [
      "/lookup",
      "/lookup/batch",
      "/bigquery",
      "/openapi.json",
      "/jobs",
      "/jobs/:id",
      "/config",
    ]
  ) {
    api.get(path, echo);
  }
  for (
    const path of [
      "/upload",
      "/enrich",
      "/jobs/:id/cancel",
      "/jobs/:id/restart",
      "/lookup/batch",
    ]
  ) {
    api.post(path, echo);
  }
  api.delete("/jobs/completed", echo);
  app.route("/api", api);
  app.get("/ws", echo);
  app.get("*", (c) => c.html("<p>the web app</p>"));
  return { app, cleanup: () => Deno.remove(dataDir, { recursive: true }) };
}

/** A test (`name`) over appWith(`env`), its data removed after. */
function accessTest(
  name: string,
  env: Record<string, string>,
  body: (made: { app: Hono }) => Promise<void>,
) {
  Deno.test(name, async () => {
    const { app, cleanup } = await appWith(env);
    try {
      await body({ app });
    } finally {
      await cleanup();
    }
  });
}

/** A client with a cookie jar of one cookie. */
function client(app: Hono) {
  let cookie: string | undefined;
  return {
    get cookie() {
      return cookie;
    },
    async request(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set("Cookie", `${SESSION_COOKIE}=${cookie}`);
      const response = await app.request(`http://app.test${path}`, {
        ...init,
        headers,
      });
      const set = response.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0].slice(SESSION_COOKIE.length + 1);
      return response;
    },
  };
}

const form = (fields: Record<string, string>, origin = "http://app.test") => ({
  method: "POST",
  headers: {
    Origin: origin,
    "Content-Type": "application/x-www-form-urlencoded",
  },
  body: new URLSearchParams(fields).toString(),
});

accessTest(
  "no password: sessions on pages and job routes, none on the lookup API",
  {},
  async ({ app }) => {
    const visitor = client(app);
    const page = await visitor.request("/");
    assertEquals(page.status, 200);
    ok(visitor.cookie);
    const jobs = await (await visitor.request("/api/jobs")).json();
    ok(jobs.session, "the job routes see the session");
    for (const path of ["/api/lookup?ip=8.8.8.8", "/api/openapi.json"]) {
      const response = await app.request(`http://app.test${path}`);
      assertEquals(response.headers.get("set-cookie"), null, path); // stays cacheable
      assertEquals((await response.json()).session, null);
    }
    // /signin without a password just goes home.
    const signin = await app.request("http://app.test/signin?next=/history");
    assertEquals([signin.status, signin.headers.get("location")], [
      303,
      "/history",
    ]);
  },
);

accessTest(
  "ACCESS_PASSWORD: pages go to /signin, job routes answer 401, lookups stay open",
  { ACCESS_PASSWORD: PASSWORD },
  async ({ app }) => {
    const visitor = client(app);
    const page = await visitor.request("/results/7?x=1");
    assertEquals(page.status, 303);
    assertEquals(
      page.headers.get("location"),
      "/signin?next=%2Fresults%2F7%3Fx%3D1",
    );
    for (
      const [method, path] of routes(
        "GET /api/jobs",
        "GET /api/jobs/1",
        "POST /api/enrich",
        "DELETE /api/jobs/completed",
        "GET /ws",
        "GET /api/config",
      )
    ) {
      const response = await visitor.request(path, { method });
      assertEquals(response.status, 401, `${method} ${path}`);
      ok((await response.json()).message.startsWith("This server is locked"));
      ok(response.headers.get("www-authenticate")?.startsWith("Basic"));
    }
    assertEquals((await visitor.request("/api")).status, 303); // the API docs page
    assertEquals((await visitor.request("/api/lookup?ip=1.1.1.1")).status, 200);
    assertEquals(
      (await visitor.request("/api/lookup/batch", { method: "POST" })).status,
      200,
    );
    assertEquals((await visitor.request("/api/bigquery")).status, 200);
    assertEquals((await visitor.request("/api/openapi.json")).status, 200);
  },
);

Deno.test("sign-in page: the app's stylesheet, which the lock leaves open", async () => {
  const webDir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${webDir}/index.html`,
    '<link rel="icon" href="/favicon.svg"><link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
  );
  const { app, cleanup } = await appWith({ ACCESS_PASSWORD: PASSWORD }, webDir);
  try {
    const html = await (await app.request("/signin?next=%2F")).text();
    ok(html.includes('<link rel="stylesheet" href="/assets/index-abc.css">'));
    ok(!html.includes("favicon"));
    // Assets pass the lock (the stand-in app answers every other path).
    assertEquals((await app.request("/assets/index-abc.css")).status, 200);
    assertEquals((await app.request("/history")).status, 303);
  } finally {
    await cleanup();
    await Deno.remove(webDir, { recursive: true });
  }
});

accessTest(
  "sign-in page: wrong password refused, right one unlocks the same session",
  { ACCESS_PASSWORD: PASSWORD },
  async ({ app }) => {
    const visitor = client(app);
    const page = await visitor.request("/signin?next=%2Fhistory");
    assertEquals(page.status, 200);
    const html = await page.text();
    ok(html.includes('<form method="post" action="/signin">'));
    ok(html.includes('name="next" value="/history"'));
    const before = visitor.cookie;
    const wrong = await visitor.request(
      "/signin",
      form({ password: "guess", next: "/history" }),
    );
    assertEquals(wrong.status, 401);
    ok((await wrong.text()).includes("That is not the access password."));
    assertEquals((await visitor.request("/api/jobs")).status, 401);
    const right = await visitor.request(
      "/signin",
      form({ password: PASSWORD, next: "/history" }),
    );
    assertEquals([right.status, right.headers.get("location")], [
      303,
      "/history",
    ]);
    assertEquals(
      visitor.cookie!.split(".")[0],
      before!.split(".")[0],
      "same session id",
    );
    assertEquals((await visitor.request("/history")).status, 200);
    assertEquals((await visitor.request("/api/jobs")).status, 200);
    // Another browser is still locked.
    assertEquals((await client(app).request("/api/jobs")).status, 401);
    // A next of another site is not followed.
    const away = await client(app).request(
      "/signin",
      form({ password: PASSWORD, next: "//evil.example/" }),
    );
    assertEquals(away.headers.get("location"), "/");
  },
);

accessTest("Basic auth with any user name opens job routes for API clients", {
  ACCESS_PASSWORD: PASSWORD,
}, async ({ app }) => {
  const auth = (password: string) => ({
    headers: { Authorization: `Basic ${btoa(`script:${password}`)}` },
  });
  assertEquals(
    (await app.request("http://app.test/api/jobs", auth(PASSWORD))).status,
    200,
  );
  assertEquals(
    (await app.request("http://app.test/history", auth(PASSWORD))).status,
    200,
  );
  assertEquals(
    (await app.request("http://app.test/api/jobs", auth("wrong"))).status,
    401,
  );
});

accessTest("sign-in attempts are limited per address", {
  ACCESS_PASSWORD: PASSWORD,
}, async ({ app }) => {
  const statuses = [];
  for (let i = 0; i < 11; i++) {
    statuses.push(
      (await client(app).request("/signin", form({ password: `guess ${i}` })))
        .status,
    );
  }
  assertEquals(statuses, [...Array(10).fill(401), 429]);
  // Even the right password waits once the attempts are spent.
  assertEquals(
    (await client(app).request("/signin", form({ password: PASSWORD })))
      .status,
    429,
  );
});

Deno.test("wrong passwords count alike from /signin and HTTP Basic", async () => {
  const { app, cleanup } = await appWith({ ACCESS_PASSWORD: PASSWORD });
  const basic = (password: string) => ({
    headers: { Authorization: `Basic ${btoa(`script:${password}`)}` },
  });
  try {
    // A right password does not use up tries, however often it is sent.
    for (let i = 0; i < 20; i++) {
      const right = await app.request(
        "http://app.test/api/jobs",
        basic(PASSWORD),
      );
      assertEquals(right.status, 200);
    }
    for (let i = 0; i < 5; i++) {
      const wrong = await client(app).request(
        "/signin",
        form({ password: `guess ${i}` }),
      );
      assertEquals(wrong.status, 401);
    }
    // 300 guesses at once: the five tries left, then every one refused.
    const guesses = await Promise.all(
      Array.from(
        { length: 300 },
        (_, i) => app.request("http://app.test/api/jobs", basic(`guess ${i}`)),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    assertEquals(statuses.filter((s) => s === 401).length, 5);
    assertEquals(statuses.filter((s) => s === 429).length, 295);
    const refused = guesses.find((r) => r.status === 429)!;
    ok(Number(refused.headers.get("retry-after")) >= 1);
    assertEquals(
      (await refused.json()).message,
      `Too many wrong passwords from your address; try again in ${
        refused.headers.get("retry-after")
      } s.`,
    );
    // The lock holds for the right password too, and for the sign-in page.
    assertEquals(
      (await app.request("http://app.test/api/jobs", basic(PASSWORD))).status,
      429,
    );
    const page = await client(app).request(
      "/signin",
      form({ password: PASSWORD }),
    );
    assertEquals(page.status, 429);
    ok(page.headers.get("retry-after"));
  } finally {
    await cleanup();
  }
});

accessTest(
  "the WebSocket upgrade refuses another origin, even of the same site",
  {},
  async ({ app }) => {
    const upgrade = (headers: Record<string, string>) =>
      app.request("http://app.example.com/ws", {
        headers: { Upgrade: "websocket", ...headers },
      });
    for (
      const from of [
        { Origin: "https://evil.example" },
        // A sibling subdomain: same site, so SameSite=Lax sends the cookie.
        { Origin: "http://blog.example.com", "Sec-Fetch-Site": "same-site" },
        { Origin: "null" },
        { "Sec-Fetch-Site": "cross-site" },
      ] as Record<string, string>[]
    ) {
      const response = await upgrade(from);
      assertEquals(response.status, 403, JSON.stringify(from));
    }
    for (
      const from of [
        { Origin: "http://app.example.com" },
        { Origin: "http://app.example.com", "Sec-Fetch-Site": "same-origin" },
        {}, // not a browser page
      ] as Record<string, string>[]
    ) {
      assertEquals((await upgrade(from)).status, 200, JSON.stringify(from));
    }
  },
);

accessTest("ALLOWED_HOSTS refuses other Host names before any session", {
  ALLOWED_HOSTS: "enrich.example.com,10.0.0.5:5000",
}, async ({ app }) => {
  const get = (url: string) => app.request(url);
  for (
    const url of [
      "http://rebind.evil.example/api/jobs",
      "http://rebind.evil.example/api/lookup?ip=8.8.8.8",
      "http://10.0.0.5:8080/",
      "http://enrich.example.com.evil.example/",
    ]
  ) {
    const response = await get(url);
    assertEquals(response.status, 421, url);
    assertEquals(response.headers.get("set-cookie"), null, url);
    const { message } = await response.json();
    ok(/does not answer to the host name/.test(message), message);
  }
  for (
    const url of [
      "http://enrich.example.com/api/jobs",
      "http://ENRICH.example.com:8443/api/jobs",
      "http://10.0.0.5:5000/api/jobs",
      "http://localhost:5000/api/jobs",
      "http://127.0.0.1/api/jobs",
      "http://[::1]:5000/api/jobs",
    ]
  ) {
    assertEquals((await get(url)).status, 200, url);
  }
});

accessTest("state-changing routes and /signin refuse another site's page", {
  ACCESS_PASSWORD: PASSWORD,
}, async ({ app }) => {
  const basic = `Basic ${btoa(`x:${PASSWORD}`)}`;
  const cross = { Origin: "https://evil.example", Authorization: basic };
  for (
    const [method, path] of routes(
      "POST /api/upload",
      "POST /api/enrich",
      "POST /api/jobs/3/cancel",
      "POST /api/jobs/3/restart",
      "DELETE /api/jobs/completed",
    )
  ) {
    const response = await app.request(`http://app.test${path}`, {
      method,
      headers: cross,
    });
    assertEquals(response.status, 403, `${method} ${path}`);
    assertEquals(
      (await response.json()).message,
      "Cross-site request refused: this action must come from the app's own pages",
    );
    const own = await app.request(`http://app.test${path}`, {
      method,
      headers: { ...cross, Origin: "http://app.test" },
    });
    assertEquals(own.status, 200, `${method} ${path} from the app`);
  }
  const signin = await client(app).request(
    "/signin",
    form({ password: PASSWORD }, "https://evil.example"),
  );
  assertEquals(signin.status, 403);
  // Reads are not state-changing: a cross-site GET is only locked, not refused.
  assertEquals(
    (await app.request("http://app.test/api/jobs", { headers: cross }))
      .status,
    200,
  );
});
