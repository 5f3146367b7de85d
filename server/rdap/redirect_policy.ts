// Where an RDAP redirect may lead. rdap.org answers 302 to the registry that
// holds the block; a registry, or whoever answers in its place, could as
// well send the client to an address on this server's own network, with the
// queried address in the URL, and have what it says shown as the public
// answer's registered_org. So a redirect is followed only to https on public
// addresses, or back to the origin of the configured RDAP_URL (a test server
// on loopback, a mirror on the private network), and for a few hops at most.
// A host name is resolved here and again by fetch; a name that changes its
// address between the two is the one gap left (fetch cannot be pinned).
import { parseIp } from "../enrichment/ip_input.ts";

export const MAX_REDIRECTS = 3;

/** A host name's addresses (A and AAAA); none when it does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The system's resolver, or the DNS server at `nameServer`. */
export function dnsResolver(
  nameServer?: { ipAddr: string; port: number },
): HostResolver {
  return async (hostname) => {
    const options = nameServer ? { nameServer } : {};
    const answers = await Promise.all(
      (["A", "AAAA"] as const).map((type) =>
        Deno.resolveDns(hostname, type, options).catch(() => [] as string[])
      ),
    );
    return answers.flat();
  };
}

/** The address a URL's host names literally, or null for a host name. */
function literalAddress(url: URL): string | null {
  const host = url.hostname;
  if (host.startsWith("[")) return host.slice(1, -1);
  // The URL parser has already turned 0x7f.1 and the like into dotted form.
  return /^\d+\.\d+\.\d+\.\d+$/.test(host) ? host : null;
}

/** Null when `target` may be fetched, else why not (for the job's log). */
export async function redirectRefusal(
  target: URL,
  configuredOrigin: string,
  resolve: HostResolver,
): Promise<string | null> {
  if (target.origin === configuredOrigin) return null;
  const where = `a redirect to ${target.protocol}//${target.host}`;
  if (target.protocol !== "https:") {
    return `${where} was not followed: only https leaves RDAP_URL's origin`;
  }
  const literal = literalAddress(target);
  const addresses = literal === null
    ? await resolve(target.hostname)
    : [literal];
  if (addresses.length === 0) {
    return `${where} was not followed: the name does not resolve`;
  }
  const inner = addresses.find((address) => !parseIp(address).ok);
  if (inner !== undefined) {
    return `${where} was not followed: ${inner} is not a public address`;
  }
  return null;
}
