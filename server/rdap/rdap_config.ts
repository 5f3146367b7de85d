// RDAP settings from the environment. Off unless RDAP=on: the default
// install talks to no outside service.

export type RdapConfig = ReturnType<typeof loadRdapConfig>;

export const RDAP_DEFAULTS = {
  enabled: false,
  url: "https://rdap.org",
  rate: 2,
  cacheDays: 30,
};

const ON = new Set(["on", "true", "yes", "1"]);
const OFF = new Set(["off", "false", "no", "0"]);

function setting(
  env: Record<string, string | undefined>,
  name: string,
): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? null : raw.trim();
}

function positiveNumber(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  what: string,
  allowZero = false,
): number {
  const raw = setting(env, name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new Error(
      `${name} must be ${what}, got "${raw}" (default ${fallback})`,
    );
  }
  return n;
}

/** Throws with a sentence naming the variable when a value is wrong. */
export function loadRdapConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
) {
  const switchText = setting(env, "RDAP")?.toLowerCase() ?? "off";
  if (!ON.has(switchText) && !OFF.has(switchText)) {
    throw new Error(`RDAP must be on or off, got "${env.RDAP}"`);
  }
  const url = setting(env, "RDAP_URL") ?? RDAP_DEFAULTS.url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`RDAP_URL must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(`RDAP_URL must be an http(s) URL, got "${url}"`);
  }
  if (parsed.search || parsed.hash) {
    throw new Error(
      `RDAP_URL must be a base URL without ?query or #fragment, got "${url}"`,
    );
  }
  return {
    enabled: ON.has(switchText),
    /** Base URL; `/ip/{address}` is appended. */
    url: url.replace(/\/+$/, ""),
    /** Requests per second, for all jobs of the server together. */
    rate: positiveNumber(
      env,
      "RDAP_RATE",
      RDAP_DEFAULTS.rate,
      "a number of requests per second above 0",
    ),
    /** Answers older than this many days are asked again. */
    cacheDays: positiveNumber(
      env,
      "RDAP_CACHE_DAYS",
      RDAP_DEFAULTS.cacheDays,
      "a number of days, 0 or more (0: always ask again)",
      true,
    ),
  };
}
