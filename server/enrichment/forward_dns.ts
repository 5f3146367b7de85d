// Forward resolution of a host name found in an IP column: A first, then
// AAAA, through the configured name servers (the system's when none are
// set); the first public address is the one looked up. Host names are rare
// in a column of addresses, so Deno's resolver, one call per query, is
// enough here (reverse DNS has its own UDP client for volume).
import { parseIp } from "./ip_input.ts";

export interface ForwardServer {
  ipAddr: string;
  port: number;
}

export type ForwardAnswer =
  | { ok: true; ip: string; version: 4 | 6; note: string }
  | {
    ok: false;
    /** For the row's failure (shared/failures.ts, kind "unresolved"). */
    reason: "no_address" | "no_answer" | "private_only";
    error: string;
  };

async function lookup(
  name: string,
  type: "A" | "AAAA",
  servers: readonly ForwardServer[],
  timeoutMs: number,
): Promise<string[] | "notFound" | "failed"> {
  let result: "notFound" | "failed" = "failed";
  for (const server of servers.length > 0 ? servers : [undefined]) {
    try {
      return await Deno.resolveDns(name, type, {
        ...(server ? { nameServer: server } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // NXDOMAIN or no record of this type: an answer, not a failure.
      if (error instanceof Deno.errors.NotFound) return "notFound";
      result = "failed";
    }
  }
  return result;
}

/** The address a host name stands for, and a note saying how it was found. */
export async function resolveHostname(
  hostname: string,
  servers: readonly ForwardServer[],
  timeoutMs = 1000,
): Promise<ForwardAnswer> {
  let failed = false;
  let privateOnly: string | null = null;
  for (const type of ["A", "AAAA"] as const) {
    const answer = await lookup(hostname, type, servers, timeoutMs);
    if (answer === "failed") failed = true;
    if (typeof answer === "string") continue;
    for (const address of answer) {
      const parsed = parseIp(address);
      if (parsed.ok) {
        return {
          ok: true,
          ip: parsed.ip,
          version: parsed.version,
          note: `Host name ${hostname} resolved (${type}) to ${parsed.ip}`,
        };
      }
      privateOnly ??= address;
    }
  }
  if (privateOnly) {
    return {
      ok: false,
      reason: "private_only",
      error:
        `Host name ${hostname} resolves only to addresses not on the public internet (${privateOnly})`,
    };
  }
  return {
    ok: false,
    reason: failed ? "no_answer" : "no_address",
    error: failed
      ? `Host name ${hostname} could not be resolved (no answer from the name servers)`
      : `Host name ${hostname} has no address (no A or AAAA record)`,
  };
}
