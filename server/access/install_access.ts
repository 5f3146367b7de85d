// Puts the ALLOWED_HOSTS check, sessions, the ACCESS_PASSWORD lock, the cross-site guard and the
// sign-in page in front of the app's routes. Call install() on the root app
// after its header middleware and before any route is added: Hono runs
// middleware in the order it was registered.
//
// The public lookup API gets no session (its answers carry no Set-Cookie and
// stay cacheable) and is not behind the lock; LOOKUP_API_KEYS guards it
// instead, inside its own routes (after CORS, so a 401 is readable from a
// browser, and before the rate limiter, which then counts per key).
import type { Hono } from "hono";
import type { AccessConfig, JobsVisibility } from "./access_config.ts";
import { allowedHostsOnly } from "./allowed_hosts.ts";
import { accessLock, PasswordAttempts, signInRoutes } from "./access_lock.ts";
import { LookupApiKeys } from "./api_keys.ts";
import { SAME_ORIGIN_ROUTES, sameSiteOnly } from "./cross_site.ts";
import { VisitorSessions } from "./session.ts";
import { resolveSessionSecret } from "./session_secret.ts";
import { builtStylesheets } from "../routes/web.ts";

/** Paths of the public lookup API: no session, no lock; API keys apply. */
export const PUBLIC_API_PATHS = new Set([
  "/api/lookup",
  "/api/lookup/batch",
  "/api/bigquery",
  "/api/openapi.json",
]);

export interface Access {
  visibility: JobsVisibility;
  sessions: VisitorSessions;
  apiKeys: LookupApiKeys;
  install(app: Hono): void;
}

export async function createAccess(
  config: AccessConfig,
  server: { dataDir: string; trustProxy: number; webDir?: string },
): Promise<Access> {
  const { trustProxy, webDir } = server;
  const secret = await resolveSessionSecret(
    config.sessionSecret,
    server.dataDir,
  );
  const password = config.accessPassword;
  const sessions = VisitorSessions.create(secret, {
    trustProxy,
    accessPassword: password,
  });
  const apiKeys = await LookupApiKeys.create(config.lookupApiKeys);
  const isPublic = (path: string) => PUBLIC_API_PATHS.has(path);
  const attempts = password === undefined
    ? undefined
    : new PasswordAttempts(password, trustProxy);

  function install(app: Hono): void {
    // First: a request for another host name gets no session either.
    app.use("*", allowedHostsOnly(config.allowedHosts, trustProxy));
    const session = sessions.middleware();
    app.use("*", async (c, next) => {
      if (isPublic(c.req.path)) return await next();
      return await session(c, next);
    });
    app.use(
      "*",
      // The web app's built assets hold no data: the sign-in page uses its
      // stylesheet.
      accessLock(
        attempts,
        (path) =>
          isPublic(path) || path === "/signin" || path.startsWith("/assets/"),
      ),
    );
    const guard = sameSiteOnly({ trustProxy });
    for (const [method, path] of SAME_ORIGIN_ROUTES) {
      app.on(method, path, guard);
    }
    const stylesheets = () =>
      webDir ? builtStylesheets(webDir) : Promise.resolve([]);
    app.route("/", signInRoutes(sessions, attempts, stylesheets));
  }

  return { visibility: config.jobsVisibility, sessions, apiKeys, install };
}
