// LOOKUP_API_KEYS: when set, the public lookup API (/api/lookup,
// /api/lookup/batch, /api/bigquery, /api/openapi.json) answers only callers
// that send one of the keys, as `Authorization: Bearer <key>` or `?key=`.
// Keys are compared by their SHA-256 digest, so neither the comparison's
// timing nor the rate limiter's table holds or reveals a key.
import type { Context, MiddlewareHandler } from "hono";
import { createHash } from "node:crypto";

declare module "hono" {
  interface ContextVariableMap {
    /** A short digest of the caller's lookup API key (set when one matched). */
    lookupApiKeyId: string;
  }
}

const digest = (key: string) =>
  createHash("sha256").update(key).digest("base64url").slice(0, 16);

/** The key a request presents, or undefined. */
export function presentedApiKey(c: Context): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(
    c.req.header("authorization") ?? "",
  );
  if (bearer) return bearer[1];
  const query = c.req.query("key");
  return query === undefined || query === "" ? undefined : query;
}

/**
 * The rate limiter's key for a request that presented a valid API key:
 * limits then follow the key, not the address (a key's holder may call from
 * many machines, and many key holders may share one proxy).
 */
export function apiKeyRateKey(c: Context): string | undefined {
  const id = c.get("lookupApiKeyId");
  return id === undefined ? undefined : `key:${id}`;
}

export interface ApiKeyGuardOptions {
  /** The body of a 401 answer (default { message }; BigQuery's differs). */
  body?: (message: string) => Record<string, unknown>;
}

export class LookupApiKeys {
  private constructor(private readonly digests: Set<string>) {}

  static create(keys: string[]): Promise<LookupApiKeys> {
    return Promise.resolve(new LookupApiKeys(new Set(keys.map(digest))));
  }

  get enabled(): boolean {
    return this.digests.size > 0;
  }

  /** Answers 401 unless the request carries a known key (when enabled). */
  guard(options: ApiKeyGuardOptions = {}): MiddlewareHandler {
    const body = options.body ?? ((message: string) => ({ message }));
    return async (c, next) => {
      if (!this.enabled || c.req.method === "OPTIONS") return await next();
      const key = presentedApiKey(c);
      const id = key === undefined ? undefined : digest(key);
      if (id === undefined || !this.digests.has(id)) {
        const message = id === undefined
          ? "This lookup API needs an API key: send it as " +
            "'Authorization: Bearer <key>' or '?key=<key>'"
          : "The API key is not recognised";
        return c.json(body(message), 401, {
          "WWW-Authenticate": 'Bearer realm="lookup API"',
        });
      }
      c.set("lookupApiKeyId", id);
      await next();
    };
  }
}
