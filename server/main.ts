// Server entry point: settings, storage, bundled data, job runner,
// housekeeping, HTTP. Without DATABASE_URL everything runs in this process
// on SQLite and Deno KV; with it, jobs, results and the queue are in
// PostgreSQL and ROLE picks this process's part (scale_out.ts).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describeAccessConfig } from "./access/access_config.ts";
import { createAccess } from "./access/install_access.ts";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { Engine, loadEngineData } from "./enrichment/engine.ts";
import { scheduleHousekeeping } from "./jobs/housekeeping.ts";
import { JobEvents } from "./jobs/job_events.ts";
import { JobRunner } from "./jobs/runner.ts";
import { scaleConfigFromEnv } from "./scale_config.ts";
import { openScaleOut, type ScaleOut } from "./scale_out.ts";
import { RateLimiter } from "./rdap/rate_limiter.ts";
import { SqliteRdapCache } from "./storage/rdap_cache.ts";
import { Store } from "./storage/store.ts";
import { openableUrl } from "./listen_address.ts";

function fatal(message: string): never {
  console.error(`error: ${message}`);
  Deno.exit(1);
}

const [config, scale] = (() => {
  try {
    return [loadConfig(), scaleConfigFromEnv(Deno.env.toObject())] as const;
  } catch (error) {
    fatal((error as Error).message);
  }
})();
const uploadsDir = join(config.dataDir, "uploads");
await mkdir(uploadsDir, { recursive: true });
const dbPath = join(config.dataDir, "enrichment.db");

if (scale.databaseUrl !== null) await runScaledOut(scale.databaseUrl);

let store: Store;
try {
  store = new Store(dbPath, { check: true });
} catch (error) {
  fatal((error as Error).message);
}

const started = performance.now();
const engineData = await loadEngineData(config).catch((error) =>
  fatal((error as Error).message)
);
const dns = {
  servers: config.dnsServers,
  timeoutMs: config.dnsTimeoutMs,
  concurrency: config.dnsConcurrency,
};
const engine = new Engine(engineData, dns);
const kvPath = join(config.dataDir, "queue.kv");
const kv = await Deno.openKv(kvPath).catch((error) =>
  fatal(
    `cannot open the job queue at ${kvPath}: ${(error as Error).message}. ` +
      "Move the file aside to start with an empty queue (jobs themselves " +
      "are kept in the database and resume).",
  )
);
const events = new JobEvents();
// One RDAP rate limit for the process: lookups here, jobs through ports.
const rdapPacer = config.rdap.enabled
  ? new RateLimiter(config.rdap.rate)
  : null;
const runner = new JobRunner({
  store,
  events,
  kv,
  engineData,
  dns,
  dbPath,
  uploadsDir,
  concurrency: config.jobConcurrency,
  idleWorkerMs: config.jobWorkerIdleSeconds * 1000,
  checkpointRows: config.checkpointRows,
  rdap: config.rdap,
  rdapPacer,
});

printSettings(engine, started, { JOB_CONCURRENCY: config.jobConcurrency });

const access = await createAccess(config.access, config).catch((error) =>
  fatal((error as Error).message)
);
const rdapCache = config.rdap.enabled
  ? new SqliteRdapCache(store.db, { maxAgeDays: config.rdap.cacheDays })
  : null;
const app = createApp({
  config,
  store,
  engine,
  runner,
  events,
  access,
  rdapPacer,
  rdapCache,
});
runner.start();
scheduleHousekeeping({ store, runner, uploadsDir, rdapCache });
const server = serve(app.fetch);

onStopSignal(async () => {
  await runner.stop();
  await server.shutdown();
  kv.close();
  store.close();
});

function printSettings(
  engine: Engine,
  started: number,
  extra: Record<string, string | number>,
): void {
  const settings = {
    PORT: config.port,
    HOST: config.host,
    DATA_DIR: config.dataDir,
    MAX_UPLOAD_MB: config.maxUploadMb,
    DNS_SERVERS: config.dnsServers.join(",") || "(system resolvers)",
    DNS_TIMEOUT_MS: config.dnsTimeoutMs,
    DNS_CONCURRENCY: config.dnsConcurrency,
    GEO_DB: config.geoDb.join(","),
    ASN_DB: config.asnDb.join(","),
    ISP_LIST: config.lists.consumer,
    MOBILE_LIST: config.lists.mobile,
    HOSTING_LIST: config.lists.hosting,
    TRANSIT_LIST: config.lists.transit,
    EDUCATION_LIST: config.lists.education,
    CLASSIFY_OVERRIDES:
      `${config.overridesPath} (${engine.classifier.overrideCount} rules)`,
    ...extra,
    RATE_LIMIT_PER_MINUTE: config.rateLimitPerMinute || "0 (off)",
    RATE_LIMIT_BURST: config.rateLimitBurst || "0 (off)",
    TRUST_PROXY: config.trustProxy || "0 (client = connecting address)",
    WEB_DIR: config.webDir,
    ACCESS: describeAccessConfig(config.access),
    RDAP: config.rdap.enabled ? "on (registration data, online)" : "off",
    RDAP_URL: config.rdap.url,
    RDAP_RATE: `${config.rdap.rate} requests/s`,
    RDAP_CACHE_DAYS: config.rdap.cacheDays,
  };
  if (config.logLevel === "warn" || config.logLevel === "error") return;
  console.log("settings:");
  for (const [key, value] of Object.entries(settings)) {
    console.log(`  ${key}=${value}`);
  }
  console.log(
    `data loaded in ${Math.round(performance.now() - started)} ms ` +
      `(${engine.asn.size} ASN ranges)`,
  );
}

function serve(fetch: (request: Request) => Response | Promise<Response>) {
  return Deno.serve({
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => {
      console.log(`listening on ${openableUrl(hostname, port)}`);
    },
  }, fetch);
}

/**
 * On SIGTERM or SIGINT (once): says so, runs `stop`, says when it is done
 * and exits; a second signal while stopping is ignored.
 */
function onStopSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: Deno.Signal) => async () => {
    if (stopping) return;
    stopping = true;
    console.log(
      `${signal}: stopping; jobs in progress resume from their last checkpoint`,
    );
    await stop();
    console.log("stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", handle("SIGTERM"));
  Deno.addSignalListener("SIGINT", handle("SIGINT"));
}

/** DATABASE_URL set: PostgreSQL, pg-boss and LISTEN/NOTIFY; ROLE decides. */
async function runScaledOut(databaseUrl: string): Promise<never> {
  const { role } = scale;
  let parts: ScaleOut;
  try {
    parts = await openScaleOut(config, databaseUrl, role, uploadsDir);
  } catch (error) {
    fatal(`cannot use DATABASE_URL: ${(error as Error).message}`);
  }
  const started = performance.now();
  const data = await loadEngineData(config).catch((error) =>
    fatal((error as Error).message)
  );
  const engine = new Engine(data, {
    servers: config.dnsServers,
    timeoutMs: config.dnsTimeoutMs,
    concurrency: config.dnsConcurrency,
  });
  printSettings(engine, started, {
    DATABASE_URL: databaseUrl.replace(/\/\/[^@/]*@/, "//***@"),
    ROLE: role,
    JOB_CONCURRENCY: role === "api" ? "0 (api)" : config.jobConcurrency,
    CHUNK_ROWS: config.chunkRows,
  });
  const { store, runner, events, blobs, rdapPacer, rdapCache } = parts;
  if (role !== "api") await runner.work(engine, config.jobConcurrency);
  let server: Deno.HttpServer | null = null;
  if (role !== "worker") {
    // Replicas share SESSION_SECRET (docs/SCALING.md), so a visitor's
    // session holds on whichever replica answers.
    const access = await createAccess(config.access, config).catch((error) =>
      fatal((error as Error).message)
    );
    const app = createApp({
      config,
      store,
      engine,
      runner,
      events,
      blobs,
      access,
      rdapPacer,
      rdapCache,
    });
    scheduleHousekeeping({ store, runner: null, uploadsDir, blobs, rdapCache });
    server = serve(app.fetch);
  } else {
    console.log("worker ready: taking jobs from the queue");
  }
  onStopSignal(async () => {
    await server?.shutdown();
    await parts.close();
  });
  return await new Promise<never>(() => {});
}
