// A registry answer that redirects to another server on loopback, through
// the real server's public lookup: the other server is never asked and its
// words never become registered_org; a wrong network is not used either.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { LookupResponse } from "../../shared/wire.ts";
import { getJson } from "../helpers/client.ts";
import { NO_DNS } from "../helpers/http.ts";
import { startRdapServer } from "../helpers/rdap_server.ts";
import { startServer } from "../helpers/server.ts";

for (
  const [route, what] of [
    ["away", "a redirect to another loopback server"],
    ["elsewhere", "an answer for a network that does not hold the address"],
  ]
) {
  Deno.test({
    name: `${what} gives no registered_org`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const other = startRdapServer();
      const configured = startRdapServer({ redirectTo: other.url });
      const server = await startServer({
        env: {
          ...NO_DNS,
          RDAP: "on",
          RDAP_URL: `${configured.url}/${route}`,
          RDAP_RATE: "50",
        },
      });
      try {
        const one = await getJson<LookupResponse>(
          server,
          "/api/lookup?ip=12.34.56.20&registration=1",
        );
        assertEquals(one.status, 200);
        if (!one.body.success) throw new Error("lookup failed");
        assertEquals(one.body.registered_org, null);
        ok(one.body.company !== "ACME CORP", `company ${one.body.company}`);
        assertEquals(configured.count(route), 1);
        assertEquals(other.requests, [], "the other server saw no request");
      } finally {
        await server.stop();
        await configured.close();
        await other.close();
      }
    },
  });
}
