// ALLOWED_HOSTS: the names this server answers to. DNS rebinding makes a
// name the attacker holds point at a server on the visitor's private
// network, so the attacker's page can read it as its own origin; the Host
// header still names the attacker's domain, and that is refused here. Loopback
// names always pass: a page can send them only if the browser itself went to
// this machine (health checks, an operator's tunnel).
import type { MiddlewareHandler } from "hono";
import { requestHost } from "./request_origin.ts";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** "Host" as name and port ("" when absent), lower-cased. */
function splitHost(host: string): { name: string; port: string } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.toLowerCase());
  return match
    ? { name: match[1].replace(/\.$/, ""), port: match[2] ?? "" }
    : { name: host.toLowerCase(), port: "" };
}

/**
 * An entry as ALLOWED_HOSTS may hold it ("name" or "name:port", IPv6 in
 * brackets), normalised; null when it is not one.
 */
export function allowedHostEntry(text: string): string | null {
  const entry = text.trim().toLowerCase();
  try {
    const url = new URL(`http://${entry}/`);
    // The URL parser drops ":80"; an entry is compared as written.
    const { name, port } = splitHost(entry);
    if (url.hostname !== name || url.pathname !== "/" || url.username) {
      return null;
    }
    return port ? `${name}:${port}` : name;
  } catch {
    return null;
  }
}

/** Whether `host` (a Host header) is one of `allowed`, or loopback. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const { name, port } = splitHost(host);
  if (LOOPBACK.has(name)) return true;
  return allowed.some((entry) => {
    const wanted = splitHost(entry);
    return wanted.name === name && (wanted.port === "" || wanted.port === port);
  });
}

/** 421 for a Host not in `allowed`; every request passes when it is empty. */
export function allowedHostsOnly(
  allowed: readonly string[],
  trustProxy: number,
): MiddlewareHandler {
  return async (c, next) => {
    if (allowed.length === 0) return await next();
    const host = requestHost(c, trustProxy);
    if (!hostAllowed(host, allowed)) {
      return c.json({
        message: `This server does not answer to the host name ` +
          `"${host.slice(0, 100)}" (not in its ALLOWED_HOSTS)`,
      }, 421);
    }
    await next();
  };
}
