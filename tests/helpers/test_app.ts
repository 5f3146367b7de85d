// For route tests that need no real process or socket: the app built as the
// server builds it (openEmbedded, createApp) over a fresh data directory,
// called in process with app.request(...). Jobs are taken from the queue and
// run on job threads as on the server (startJobs). `app.request` keeps the session cookie between calls,
// as a browser does, so a job made in one call is the caller's in the next
// (private mode); `anonymous` is the app without a cookie jar.
import { createAccess } from "../../server/access/install_access.ts";
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { AppDeps } from "../../server/deps.ts";
import { openEmbedded } from "../../server/embedded.ts";
import {
  type EngineData,
  loadEngineData,
} from "../../server/enrichment/engine.ts";
import { keepFeatures, seedFeatures } from "./feature_cache.ts";

type App = ReturnType<typeof createApp>;

/** What tests call: the app's request(), with or without a cookie jar. */
export interface RequestClient {
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** A client that keeps cookies; `cookies`: what the app has set so far. */
export interface CookieClient extends RequestClient {
  cookies: Map<string, string>;
}

/** A client of `app` that keeps the cookies the app sets. */
export function withCookieJar(app: App): CookieClient {
  const jar = new Map<string, string>();
  return {
    cookies: jar,
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
  app: CookieClient;
  /** The app itself: each call a new visitor unless it sends a cookie. */
  hono: App;
  deps: AppDeps;
  /** Stops the workers, closes store and queue, removes the data. */
  close(): Promise<void>;
}

let engineData: Promise<EngineData> | undefined;

// The AS features as the test servers keep them: built once, not per run.
async function loadEngineDataOnce(
  dataDir: string,
  config: ReturnType<typeof loadConfig>,
  env: Record<string, string>,
): Promise<EngineData> {
  await seedFeatures(dataDir);
  const data = await loadEngineData(config);
  await keepFeatures(dataDir, env);
  return data;
}

/**
 * `dataDir`: open this data directory (as a restarted server would) and
 * leave it on close; by default a fresh one, removed on close.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  { dataDir: reused }: { dataDir?: string } = {},
): Promise<TestApp> {
  const dataDir = reused ??
    await Deno.makeTempDir({ prefix: "ipenrich-routes-" });
  // Nothing listens on port 9: no lookup leaves this machine.
  const config = loadConfig({
    DATA_DIR: dataDir,
    DNS_SERVERS: "127.0.0.1:9",
    DNS_TIMEOUT_MS: "50",
    LOG_LEVEL: "warn",
    JOB_CONCURRENCY: "1",
    ...env,
  });
  engineData ??= loadEngineDataOnce(dataDir, config, env);
  const parts = await openEmbedded(config, { engineData: await engineData });
  await parts.startJobs();
  const access = await createAccess(config.access, config);
  const deps = { ...parts, config, access };
  const hono = createApp(deps);
  return {
    app: withCookieJar(hono),
    hono,
    deps,
    async close() {
      await parts.close();
      if (!reused) await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** A test (`name`) over a fresh startTestApp(`env`), closed after. */
export function appTest(
  name: string,
  env: Record<string, string>,
  body: (app: TestApp) => Promise<void>,
): void {
  Deno.test(name, async () => {
    const app = await startTestApp(env);
    try {
      await body(app);
    } finally {
      await app.close();
    }
  });
}

/** Method and path pairs, written as "GET /api/jobs". */
export function routes(...lines: string[]): [string, string][] {
  return lines.map((line) => {
    const [method, path] = line.split(" ");
    return [method, path];
  });
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

/** What `answer()` returns: the status, headers and the body read as JSON. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One request to `client`, the answer's body parsed as JSON (null when
 * empty); `json` is sent as a JSON body (a string as it is), POST by default.
 */
export async function answer<T = unknown>(
  client: RequestClient,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Answer<T>> {
  const { json, ...rest } = init;
  const response = await client.request(
    path,
    json === undefined ? rest : {
      ...jsonRequest(json, rest.method),
      ...rest,
      headers: { "content-type": "application/json", ...rest.headers },
    },
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text === "" ? null : JSON.parse(text)) as T,
  };
}
