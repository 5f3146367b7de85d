// Settings from environment variables, each with a working default, so the
// server starts with no set-up. main.ts prints the effective values.
import type { OperatorContact } from "../shared/operator_contact.ts";
import { loadAccessConfig } from "./access/access_config.ts";
import { maxUncompressedMb } from "./upload_formats/limits.ts";
import { loadRdapConfig } from "./rdap/rdap_config.ts";
import { logLevelOf } from "./log.ts";
import { DEFAULT_REGISTRY } from "./databases/bundled.ts";
import { DEFAULT_LIST_PATHS } from "./classification/lists.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * The most data rows a chunk of a job holds: `rows` (CHUNK_ROWS), and
 * `dnsRows` (DNS_CHUNK_ROWS) for a job that looks host names up, whose
 * chunks are few and large (jobs/run_chunk.ts).
 */
export interface ChunkSizes {
  rows: number;
  dnsRows: number;
}

export type Config = ReturnType<typeof loadConfig>;

/** A comma-separated variable, or the fallback when unset. */
function listSetting<T>(value: string | undefined, fallback: T): string[] | T {
  if (value === undefined || value.trim() === "") return fallback;
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

/** A numeric variable at least `min`, or the fallback when unset. */
function numberSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min = 0,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  }
  return n;
}

/** TRUST_PROXY: a number of proxy hops; "true" means one, "false" none. */
function proxyHops(raw: string | undefined): number {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "" || value === "false" || value === "no") return 0;
  if (value === "true" || value === "yes") return 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(
      `TRUST_PROXY must be a number of proxies, true or false, got "${raw}"`,
    );
  }
  return n;
}

/** CONTACT_EMAIL and CONTACT_URL, checked so a typo does not go live. */
function operatorContact(
  env: Record<string, string | undefined>,
): OperatorContact {
  const email = env.CONTACT_EMAIL?.trim() || null;
  const url = env.CONTACT_URL?.trim() || null;
  if (email !== null && !/^[^\s@<>"]+@[^\s@<>"]+$/.test(email)) {
    throw new Error(`CONTACT_EMAIL must be an e-mail address, got "${email}"`);
  }
  if (url !== null && !/^(https?:\/\/[^\s<>"]+|mailto:[^\s<>"]+)$/.test(url)) {
    throw new Error(
      `CONTACT_URL must be an http(s):// or mailto: address, got "${url}"`,
    );
  }
  return { email, url };
}

/** DATABASE_UPDATES: off (the default) or weekly. */
function updateSchedule(raw: string | undefined): "off" | "weekly" {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "" || value === "off") return "off";
  if (value === "weekly") return "weekly";
  throw new Error(`DATABASE_UPDATES must be off or weekly, got "${raw}"`);
}

export function loadConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
) {
  const maxUploadMb = numberSetting(env, "MAX_UPLOAD_MB", 10, 0.001);
  const dataDir = env.DATA_DIR ?? `${ROOT}data`;
  return {
    host: env.HOST ?? "0.0.0.0",
    port: numberSetting(env, "PORT", 5000),
    dataDir,
    maxUploadMb,
    /** What a compressed or xlsx upload may expand to (50x maxUploadMb). */
    maxUncompressedMb: maxUncompressedMb(env, maxUploadMb),
    /**
     * The longest row an upload may have, in characters (MAX_ROW_BYTES). At
     * least 256 KiB: a row inside one read of the upload (at most 128 KiB)
     * is then under it, so only rows spanning reads need measuring.
     */
    maxRowBytes: numberSetting(env, "MAX_ROW_BYTES", 1024 * 1024, 256 * 1024),
    /** MB of uploads one session may store in a day (0: no limit). */
    uploadQuotaMb: numberSetting(env, "UPLOAD_QUOTA_MB", 2000),
    /** Reverse DNS: the settings both modes' engines and job threads take. */
    dns: {
      /** "host" or "host:port" entries; empty means the system's resolvers. */
      servers: listSetting(env.DNS_SERVERS, []),
      timeoutMs: numberSetting(env, "DNS_TIMEOUT_MS", 1000, 1),
      // A ceiling: the window starts at 32 and grows while answers come at a
      // steady latency (dns_window.ts); 1024 keeps a resolver ~60 ms away busy.
      concurrency: numberSetting(env, "DNS_CONCURRENCY", 1024, 1),
    },
    /**
     * GEO_DB: the user's city MMDB files (IPv4 and IPv6 may be separate
     * files); null: the bundled package, or its update (databases/installed.ts).
     */
    geoDb: listSetting(env.GEO_DB, null),
    /** ASN_DB: ip-location-db CSVs or MMDB files; null: the bundled package. */
    asnDb: listSetting(env.ASN_DB, null),
    /** Data built longer ago than this is called stale (DATA_MAX_AGE_DAYS). */
    dataMaxAgeDays: numberSetting(env, "DATA_MAX_AGE_DAYS", 60, 1),
    /** The npm registry update-databases asks (DATABASE_REGISTRY_URL). */
    databaseRegistryUrl: env.DATABASE_REGISTRY_URL || DEFAULT_REGISTRY,
    /** How often a running server looks for updated data (seconds). */
    databaseCheckSeconds: numberSetting(env, "DATABASE_CHECK_SECONDS", 60, 1),
    /** DATABASE_UPDATES: "weekly" runs update-databases in the server. */
    databaseUpdates: updateSchedule(env.DATABASE_UPDATES),
    /** Curated AS lists the classifier reads (server/data/*.txt). */
    lists: {
      consumer: env.ISP_LIST || DEFAULT_LIST_PATHS.consumer,
      mobile: env.MOBILE_LIST || DEFAULT_LIST_PATHS.mobile,
      hosting: env.HOSTING_LIST || DEFAULT_LIST_PATHS.hosting,
      transit: env.TRANSIT_LIST || DEFAULT_LIST_PATHS.transit,
      education: env.EDUCATION_LIST || DEFAULT_LIST_PATHS.education,
    },
    /** CLASSIFY_OVERRIDES: operator's classification rules. */
    overridesPath: env.CLASSIFY_OVERRIDES || `${dataDir}/overrides.txt`,
    /** Jobs processed at once; further jobs wait as pending. */
    jobConcurrency: numberSetting(env, "JOB_CONCURRENCY", 2, 1),
    /** Job threads of the embedded mode, each running a chunk at a time. */
    jobThreads: numberSetting(
      env,
      "JOB_THREADS",
      navigator.hardwareConcurrency || 2,
      1,
    ),
    /** Seconds a job thread with no chunk is kept for the next one. */
    jobWorkerIdleSeconds: numberSetting(env, "JOB_WORKER_IDLE_SECONDS", 60),
    /** Rows after which a job thread ends as soon as it has no chunk. */
    jobWorkerRetireRows: numberSetting(env, "JOB_WORKER_RETIRE_ROWS", 100_000),
    /** Seconds a job may finish no row before it fails (JOB_STALL_SECONDS). */
    jobStallSeconds: numberSetting(env, "JOB_STALL_SECONDS", 600, 1),
    /** Rows per progress commit (at most 100). */
    progressRows: Math.min(
      numberSetting(env, "PROGRESS_ROWS", 100, 1),
      100,
    ),
    /** Data rows per chunk of a job, the unit of work of both modes. */
    chunkSizes: {
      rows: numberSetting(env, "CHUNK_ROWS", 8_000, 1),
      dnsRows: numberSetting(env, "DNS_CHUNK_ROWS", 50_000, 1),
    },
    webDir: env.WEB_DIR ?? `${ROOT}web/dist`,
    /** Public lookup routes: requests per minute per client address (0: off). */
    rateLimitPerMinute: numberSetting(env, "RATE_LIMIT_PER_MINUTE", 600),
    /** Public lookup routes: lookups a client may make at once (0: off). */
    rateLimitBurst: numberSetting(env, "RATE_LIMIT_BURST", 60),
    /**
     * Proxies in front of the server whose X-Forwarded-For is trusted (0: none;
     * the client is the connecting address).
     */
    trustProxy: proxyHops(env.TRUST_PROXY),
    logLevel: logLevelOf(env.LOG_LEVEL),
    /** Sessions, job visibility, ACCESS_PASSWORD, LOOKUP_API_KEYS. */
    access: loadAccessConfig(env),
    /** RDAP, RDAP_URL, RDAP_RATE, RDAP_CACHE_DAYS: registration data (online). */
    rdap: loadRdapConfig(env),
    /** CONTACT_EMAIL, CONTACT_URL: who answers for this server. */
    contact: operatorContact(env),
  };
}
