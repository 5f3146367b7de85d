// For route tests that need no real process or socket: createApp(deps) with
// the real parts (SQLite store, engine with the bundled databases, job
// runner and its queue) over a fresh data directory, called in process with
// app.request(...). A created job runs in a worker thread as on the server;
// the runner does not listen to the queue, so nothing is resumed.
// `app.request` keeps the session cookie between calls, as a browser does,
// so a job made in one call is the caller's in the next (private mode);
// `anonymous` is the app without a cookie jar.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createAccess } from "../access/install_access.ts";
import { createApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import {
  Engine,
  type EngineData,
  loadEngineData,
} from "../enrichment/engine.ts";
import { JobEvents } from "../jobs/job_events.ts";
import { JobRunner } from "../jobs/runner.ts";
import { RateLimiter } from "../rdap/rate_limiter.ts";
import { SqliteRdapCache } from "../storage/rdap_cache.ts";
import { Store } from "../storage/store.ts";

type App = ReturnType<typeof createApp>;

/** What tests call: the app's request(), with or without a cookie jar. */
export interface RequestClient {
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** A client of `app` that keeps the cookies the app sets. */
export function withCookieJar(app: App): RequestClient {
  const jar = new Map<string, string>();
  return {
    async request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (jar.size > 0 && !headers.has("cookie")) {
        headers.set(
          "cookie",
          [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        );
      }
      const response = await app.request(path, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
      return response;
    },
  };
}

export interface TestApp {
  /** The app with a cookie jar (one visitor). */
  app: RequestClient;
  /** The app itself: each call a new visitor unless it sends a cookie. */
  hono: App;
  deps: AppDeps;
  /** Stops the workers, closes store and queue, removes the data. */
  close(): Promise<void>;
}

let engineData: Promise<EngineData> | undefined;

export async function startTestApp(
  env: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-routes-" });
  const uploadsDir = join(dataDir, "uploads");
  await mkdir(uploadsDir, { recursive: true });
  // Nothing listens on port 9: no lookup leaves this machine.
  const config = loadConfig({
    DATA_DIR: dataDir,
    DNS_SERVERS: "127.0.0.1:9",
    DNS_TIMEOUT_MS: "50",
    LOG_LEVEL: "warn",
    ...env,
  });
  const dbPath = join(dataDir, "enrichment.db");
  const store = new Store(dbPath);
  engineData ??= loadEngineData(config);
  const data = await engineData;
  const dns = {
    servers: config.dnsServers,
    timeoutMs: config.dnsTimeoutMs,
    concurrency: config.dnsConcurrency,
  };
  const kv = await Deno.openKv(join(dataDir, "queue.kv"));
  const events = new JobEvents();
  const rdapPacer = config.rdap.enabled
    ? new RateLimiter(config.rdap.rate)
    : null;
  const runner = new JobRunner({
    store,
    events,
    kv,
    engineData: data,
    dns,
    dbPath,
    uploadsDir,
    concurrency: 1,
    checkpointRows: config.checkpointRows,
    rdap: config.rdap,
    rdapPacer,
  });
  const access = await createAccess(config.access, config);
  const deps = {
    config,
    store,
    engine: new Engine(data, dns),
    runner,
    events,
    access,
    rdapPacer,
    rdapCache: config.rdap.enabled
      ? new SqliteRdapCache(store.db, { maxAgeDays: config.rdap.cacheDays })
      : null,
  };
  const hono = createApp(deps);
  return {
    app: withCookieJar(hono),
    hono,
    deps,
    async close() {
      await runner.stop();
      kv.close();
      store.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** A JSON request for app.request(path, jsonRequest(body)). */
export function jsonRequest(body: unknown, method = "POST"): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** POST /api/upload of `content` as the multipart field "file". */
export function uploadRequest(name: string, content: string): RequestInit {
  const form = new FormData();
  form.append("file", new Blob([content]), name);
  return { method: "POST", body: form };
}
