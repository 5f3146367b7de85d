// Guessing, rebinding and cross-origin reads against the real server: wrong
// HTTP Basic passwords meet a 429, a Host name not in ALLOWED_HOSTS is
// refused, the WebSocket refuses another origin, and a short ACCESS_PASSWORD
// stops the start.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { serverTest, startServer } from "../helpers/server.ts";

const PASSWORD = "correct horse battery staple";
const basic = (password: string) => `Basic ${btoa(`any-user:${password}`)}`;

/** The status of a GET sent with this Host header (fetch would replace it). */
async function statusWithHost(
  port: number,
  host: string,
  path: string,
): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n` +
      `Authorization: ${basic(PASSWORD)}\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    const buffer = new Uint8Array(256);
    const read = await conn.read(buffer);
    const head = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  } finally {
    conn.close();
  }
}

/** Whether a WebSocket sent with these headers opens. */
function socketOpens(url: string, headers: Record<string, string>) {
  return new Promise<boolean>((resolve) => {
    // Deno's WebSocket takes headers, as a browser's upgrade would carry.
    const ws = new WebSocket(url, { headers } as unknown as string[]);
    ws.onopen = () => {
      ws.close();
      resolve(true);
    };
    ws.onerror = () => resolve(false);
  });
}

serverTest("a locked server with ALLOWED_HOSTS", {
  ACCESS_PASSWORD: PASSWORD,
  ALLOWED_HOSTS: "enrich.example.test",
}, async (server, t) => {
  await t.step("a Host name not in ALLOWED_HOSTS gets 421", async () => {
    const status = (host: string) =>
      statusWithHost(server.port, host, "/api/jobs");
    // DNS rebinding: the attacker's name, pointed at this server.
    assertEquals(await status("rebind.evil.example"), 421);
    assertEquals(await status(`rebind.evil.example:${server.port}`), 421);
    assertEquals(await status("enrich.example.test"), 200);
    assertEquals(await status(`127.0.0.1:${server.port}`), 200);
  });

  await t.step(
    "the WebSocket opens only for the app's origin",
    async () => {
      const url = `${server.url.replace("http", "ws")}/ws`;
      const auth = { authorization: basic(PASSWORD) };
      assertEquals(
        await socketOpens(url, { ...auth, origin: "https://evil.example" }),
        false,
      );
      assertEquals(
        await socketOpens(url, { ...auth, origin: server.url }),
        true,
      );
    },
  );

  await t.step(
    "fifty wrong Basic passwords in a row meet a 429",
    async () => {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 50; i++) {
        const response = await fetch(`${server.url}/api/jobs`, {
          headers: { authorization: basic(`guess ${i}`) },
        });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get("retry-after");
          match(
            (await response.json()).message,
            /Too many wrong passwords/,
          );
        } else await response.body?.cancel();
      }
      assertEquals(statuses, [
        ...Array(10).fill(401),
        ...Array(40).fill(429),
      ]);
      ok(Number(retryAfter) >= 1, `Retry-After: ${retryAfter}`);
      // The sign-in page counts the same tries.
      const signIn = await fetch(`${server.url}/signin`, {
        method: "POST",
        body: new URLSearchParams({ password: PASSWORD }),
        redirect: "manual",
      });
      await signIn.body?.cancel();
      assertEquals(signIn.status, 429);
    },
  );
});

Deno.test({
  name: "a short ACCESS_PASSWORD stops the start with a clear message",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    let error = "";
    try {
      const server = await startServer({ env: { ACCESS_PASSWORD: "hunter2" } });
      await server.stop();
    } catch (e) {
      error = (e as Error).message;
    }
    match(error, /server exited \(1\)/);
    match(error, /ACCESS_PASSWORD must be at least 12 characters \(got 7\)/);
    ok(!error.includes("hunter2"), "the password is not echoed");
  },
});
