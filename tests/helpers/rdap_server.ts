// An RDAP server on loopback (RFC 9082 paths, RFC 9083 JSON), with the
// behaviours a client must survive:
//   {url}/ip/X          a bootstrap-like front: 302 to {url}/registry/ip/X
//   {url}/registry/ip/X the registry: the most specific fixture network, or 404
//   {url}/flaky/ip/X    503 on the first request for X, then the registry
//   {url}/dead/ip/X     never answers (until the server closes)
//   {url}/huge/ip/X     a 200 of 2 MB; {url}/garbage/ip/X a 200 that is not JSON
//   {url}/away/ip/X     302 to {redirectTo}/registry/ip/X (another server)
//   {url}/loop/ip/X     302 to itself, for ever
//   {url}/elsewhere/ip/X  a 200 with a fixture network that does not hold X
// Addresses in `tooManyOnce` get one 429 with the given Retry-After first.
import { parseAddress, type Span, spanOf } from "../../server/rdap/ip_span.ts";
import { ALL_NETWORKS } from "./rdap_fixtures.ts";
import { type RunningServer, startServer } from "./server.ts";

/** The span's size in addresses (for "most specific": the smaller wins). */
const spanSize = (span: Span) => span.end - span.start + 1n;

type Json = Record<string, unknown>;

export interface RdapRequest {
  /** "front", "registry", "flaky", "dead", "huge", "garbage", "away"... */
  route: string;
  address: string;
  status: number;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface RdapServer {
  url: string;
  registryUrl: string;
  flakyUrl: string;
  deadUrl: string;
  requests: RdapRequest[];
  /** Requests that reached `route` (default: the registry). */
  count(route?: string): number;
  close(): Promise<void>;
}

export interface RdapServerOptions {
  networks?: Json[];
  /** address -> Retry-After header value for one 429. */
  tooManyOnce?: Record<string, string>;
  /** Where {url}/away redirects: another server's base URL. */
  redirectTo?: string;
}

const RDAP_JSON = { "content-type": "application/rdap+json" };

function rdapError(status: number, title: string): Response {
  return new Response(
    JSON.stringify({
      rdapConformance: ["rdap_level_0"],
      errorCode: status,
      title,
      description: [`${title} (loopback test server)`],
    }),
    { status, headers: RDAP_JSON },
  );
}

export function startRdapServer(options: RdapServerOptions = {}): RdapServer {
  const networks = (options.networks ?? ALL_NETWORKS).map((body) => ({
    body,
    span: spanOf(String(body.startAddress), String(body.endAddress))!,
  }));
  const tooMany = new Map(Object.entries(options.tooManyOnce ?? {}));
  const flakySeen = new Set<string>();
  const hanging = new Set<() => void>();
  const requests: RdapRequest[] = [];

  const registry = (address: string): Response => {
    const retryAfter = tooMany.get(address);
    if (retryAfter !== undefined) {
      tooMany.delete(address);
      const response = rdapError(429, "Too Many Requests");
      response.headers.set("retry-after", retryAfter);
      return response;
    }
    const parsed = parseAddress(address);
    if (!parsed) return rdapError(400, "Bad Request");
    const holding = networks
      .filter(({ span }) =>
        span.family === parsed.family && span.start <= parsed.value &&
        parsed.value <= span.end
      )
      .sort((a, b) => Number(spanSize(a.span) - spanSize(b.span)));
    if (holding.length === 0) return rdapError(404, "Not Found");
    return new Response(JSON.stringify(holding[0].body), {
      headers: RDAP_JSON,
    });
  };

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const match = url.pathname.match(
      /^(?:\/(registry|flaky|dead|huge|garbage|away|loop|elsewhere))?\/ip\/(.+)$/,
    );
    const at = performance.now();
    if (!match) return rdapError(400, "Bad Request");
    const route = match[1] ?? "front";
    const address = decodeURIComponent(match[2]);
    const log = (response: Response) => {
      requests.push({ route, address, status: response.status, at });
      return response;
    };
    switch (route) {
      case "front":
        return log(
          new Response(null, {
            status: 302,
            headers: { location: `/registry/ip/${match[2]}` },
          }),
        );
      case "away":
      case "loop":
        return log(
          new Response(null, {
            status: 302,
            headers: {
              location: route === "away"
                ? `${options.redirectTo}/registry/ip/${match[2]}`
                : `/loop/ip/${match[2]}`,
            },
          }),
        );
      case "elsewhere": {
        const other = networks.find(({ span }) => {
          const parsed = parseAddress(address);
          return !parsed || parsed.family !== span.family ||
            parsed.value < span.start || parsed.value > span.end;
        })!;
        return log(
          new Response(JSON.stringify(other.body), { headers: RDAP_JSON }),
        );
      }
      case "flaky":
        if (!flakySeen.has(address)) {
          flakySeen.add(address);
          return log(rdapError(503, "Service Unavailable"));
        }
        return log(registry(address));
      case "dead":
        // Logged with status 0: no answer is ever sent.
        requests.push({ route, address, status: 0, at });
        // Held until the server closes (a client's abort does not end it).
        await new Promise<void>((resolve) => hanging.add(resolve));
        return new Response(null, { status: 503 });
      case "huge":
        return log(
          new Response(`{"name":"${"x".repeat(2 << 20)}"}`, {
            headers: RDAP_JSON,
          }),
        );
      case "garbage":
        return log(new Response("<html>busy</html>", { headers: RDAP_JSON }));
      default:
        return log(registry(address));
    }
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handle,
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    registryUrl: `${url}/registry`,
    flakyUrl: `${url}/flaky`,
    deadUrl: `${url}/dead`,
    requests,
    count: (route = "registry") =>
      requests.filter((r) => r.route === route).length,
    async close() {
      for (const resolve of hanging) resolve();
      await server.shutdown();
    },
  };
}

/**
 * A test (`name`) with a loopback RDAP server and a server started with
 * `env(rdap)`, both stopped after.
 */
export function rdapServerTest(
  name: string,
  env: (rdap: RdapServer) => Record<string, string>,
  body: (
    server: RunningServer,
    rdap: RdapServer,
    t: Deno.TestContext,
  ) => Promise<void>,
): void {
  Deno.test(
    { name, sanitizeOps: false, sanitizeResources: false },
    async (t) => {
      const rdap = startRdapServer();
      try {
        const server = await startServer({ env: env(rdap) });
        try {
          await body(server, rdap, t);
        } finally {
          await server.stop();
        }
      } finally {
        await rdap.close();
      }
    },
  );
}
