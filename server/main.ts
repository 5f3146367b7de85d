// Server entry point: settings, then the parts of the mode (embedded.ts:
// SQLite and Deno KV in this process, without DATABASE_URL; scale_out.ts:
// PostgreSQL, pg-boss and LISTEN/NOTIFY, with it), then jobs, housekeeping
// and HTTP as ROLE says.
import { describeAccessConfig } from "./access/access_config.ts";
import { createAccess } from "./access/install_access.ts";
import { createApp } from "./app.ts";
import { describeLine, staleWarnings } from "./databases/data_age.ts";
import { updateCommand } from "./databases/update_command.ts";
import { scheduleDataUpdates } from "./databases/scheduled_update.ts";
import { loadConfig } from "./config.ts";
import { openEmbedded } from "./embedded.ts";
import type { Engine } from "./enrichment/engine.ts";
import { openableUrl } from "./listen_address.ts";
import type { Parts } from "./parts.ts";
import { scaleConfigFromEnv } from "./scale_config.ts";
import { openScaleOut } from "./scale_out.ts";

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
const { databaseUrl, role } = scale;

if (Deno.args[0] === "update-databases") {
  Deno.exit(await updateCommand(config, databaseUrl));
}

const started = performance.now();
const parts: Parts =
  await (databaseUrl === null
    ? openEmbedded(config, { check: true })
    : openScaleOut(config, databaseUrl, role)).catch((error) =>
      fatal((error as Error).message)
    );
printSettings(parts.engine, started, parts.settings);

if (role !== "api") await parts.startJobs();
scheduleDataUpdates(config, parts.followDataUpdates());
let server: Deno.HttpServer | null = null;
if (role !== "worker") {
  // Replicas share SESSION_SECRET (docs/SCALING.md), so a visitor's
  // session holds on whichever replica answers.
  const access = await createAccess(config.access, config).catch((error) =>
    fatal((error as Error).message)
  );
  const app = createApp({ ...parts, config, access });
  parts.scheduleHousekeeping();
  server = serve(app.fetch);
} else {
  console.log("worker ready: taking jobs from the queue");
}

onStopSignal(async () => {
  await server?.shutdown();
  await parts.close();
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
    DNS_SERVERS: config.dns.servers.join(",") || "(system resolvers)",
    DNS_TIMEOUT_MS: config.dns.timeoutMs,
    DNS_CONCURRENCY: config.dns.concurrency,
    GEO_DB: config.geoDb?.join(",") ?? "(bundled)",
    ASN_DB: config.asnDb?.join(",") ?? "(bundled)",
    DATA_MAX_AGE_DAYS: config.dataMaxAgeDays,
    DATABASE_UPDATES: config.databaseUpdates,
    DATABASE_CHECK_SECONDS: config.databaseCheckSeconds,
    DATABASE_REGISTRY_URL: config.databaseRegistryUrl,
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
    CONTACT_EMAIL: config.contact.email ?? "none",
    CONTACT_URL: config.contact.url ?? "none",
  };
  const { databases } = engine.data;
  if (config.logLevel !== "error") {
    for (const warning of staleWarnings(databases, config.dataMaxAgeDays)) {
      console.warn(`warning: ${warning}`);
    }
  }
  if (config.logLevel === "warn" || config.logLevel === "error") return;
  console.log("settings:");
  for (const [key, value] of Object.entries(settings)) {
    console.log(`  ${key}=${value}`);
  }
  console.log("data:");
  for (const database of databases) console.log(`  ${describeLine(database)}`);
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
      `${signal}: stopping; jobs in progress resume at the next start (chunks not done run again)`,
    );
    await stop();
    console.log("stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", handle("SIGTERM"));
  Deno.addSignalListener("SIGINT", handle("SIGINT"));
}
