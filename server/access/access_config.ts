// Settings of visitor sessions and access control, read from the environment
// with the same rule as the rest of the configuration: unset or empty means
// the default, a value that cannot be right stops the server with a message
// naming the variable.
import { allowedHostEntry } from "./allowed_hosts.ts";

const VISIBILITIES = ["private", "shared"] as const;
export type JobsVisibility = typeof VISIBILITIES[number];

export type AccessConfig = ReturnType<typeof loadAccessConfig>;

/** Shorter secrets are guessable offline from one signed cookie. */
export const MIN_SECRET_LENGTH = 32;
/**
 * Guessing is throttled per address (access_lock.ts), but an attacker may
 * have many addresses; a passphrase of a few words is as easy to type.
 */
export const MIN_PASSWORD_LENGTH = 12;
/** API keys travel in URLs (?key=) too: printable, no separators. */
const API_KEY = /^[A-Za-z0-9._~+/=-]{16,200}$/;

function optional(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

export function loadAccessConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
) {
  const sessionSecret = optional(env.SESSION_SECRET);
  if (sessionSecret !== undefined && sessionSecret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters ` +
        `(got ${sessionSecret.length}); unset it to have one generated ` +
        `into the data directory`,
    );
  }

  const accessPassword = optional(env.ACCESS_PASSWORD);
  if (
    accessPassword !== undefined && accessPassword.length < MIN_PASSWORD_LENGTH
  ) {
    // The password itself is not echoed: it is a credential.
    throw new Error(
      `ACCESS_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters ` +
        `(got ${accessPassword.length}); a few words with spaces are easy ` +
        `to type and hard to guess`,
    );
  }

  const visibilityText = (optional(env.JOBS_VISIBILITY) ?? "private")
    .trim().toLowerCase();
  const visibility = VISIBILITIES.find((name) => name === visibilityText);
  if (visibility === undefined) {
    throw new Error(
      `JOBS_VISIBILITY must be "private" or "shared", got "${env.JOBS_VISIBILITY}"`,
    );
  }

  const lookupApiKeys = (optional(env.LOOKUP_API_KEYS) ?? "")
    .split(",").map((s) => s.trim()).filter(Boolean);
  for (const [index, key] of lookupApiKeys.entries()) {
    if (!API_KEY.test(key)) {
      // The key itself is not echoed: it is a credential.
      throw new Error(
        `LOOKUP_API_KEYS entry ${index + 1} must be 16 to 200 characters ` +
          `of letters, digits and . _ ~ + / = - (keys are separated by commas)`,
      );
    }
  }

  const allowedHosts = (optional(env.ALLOWED_HOSTS) ?? "")
    .split(",").map((s) => s.trim()).filter(Boolean).map((text, index) => {
      const entry = allowedHostEntry(text);
      if (entry === null) {
        throw new Error(
          `ALLOWED_HOSTS entry ${index + 1} ("${text}") must be a host name ` +
            `or address, optionally with :port, such as enrich.example.com ` +
            `or 10.0.0.5:5000 (entries are separated by commas)`,
        );
      }
      return entry;
    });

  return {
    /** HMAC key of the session cookie; undefined: generated into DATA_DIR. */
    sessionSecret,
    /** private: a session sees only its own jobs; shared: everyone's. */
    jobsVisibility: visibility,
    /** When set, pages and job routes ask for it once per session. */
    accessPassword,
    /** When non-empty, the public lookup API requires one of these keys. */
    lookupApiKeys: [...new Set(lookupApiKeys)],
    /** When non-empty, requests for other Host names are refused (421). */
    allowedHosts: [...new Set(allowedHosts)],
  };
}

/** The effective values for the start-up summary, without the secrets. */
export function describeAccessConfig(config: AccessConfig): string {
  return [
    `sessionSecret=${config.sessionSecret ? "set" : "from data directory"}`,
    `jobsVisibility=${config.jobsVisibility}`,
    `accessPassword=${config.accessPassword ? "set" : "none"}`,
    `lookupApiKeys=${config.lookupApiKeys.length}`,
    `allowedHosts=${config.allowedHosts.join(",") || "any"}`,
  ].join(" ");
}
