// Which redirect targets an RDAP query may follow, with host names resolved
// by dnsmasq on loopback: nothing here is fetched.
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { startPtrServer } from "../../tests/helpers/dnsmasq.ts";
import { dnsResolver, redirectRefusal } from "./redirect_policy.ts";

const CONFIGURED = "http://127.0.0.1:8080";

Deno.test("only https to public addresses, or the configured origin", async () => {
  const dns = await startPtrServer({
    records: {},
    localZones: ["test"],
    hostRecords: [
      "registry.example.test,81.2.69.142,2001:4860:4860::8888",
      "intranet.example.test,10.1.2.3",
      "mixed.example.test,81.2.69.142,127.0.0.1",
      "v6inner.example.test,fd00::1",
    ],
  });
  const resolve = dnsResolver({ ipAddr: "127.0.0.1", port: dns.port });
  const refusal = (url: string) =>
    redirectRefusal(new URL(url), CONFIGURED, resolve);
  try {
    // The configured origin, whatever its scheme and address.
    assertEquals(await refusal("http://127.0.0.1:8080/registry/ip/1"), null);
    assertEquals(await refusal("https://registry.example.test/ip/1"), null);
    assertEquals(await refusal("https://81.2.69.142/ip/1"), null);
    assertEquals(await refusal("https://[2001:4860:4860::8888]/ip/1"), null);
    const refused: [string, RegExp][] = [
      ["http://registry.example.test/ip/1", /only https/],
      ["http://127.0.0.1:8081/ip/1", /only https/],
      ["https://127.0.0.1:8080/ip/1", /127\.0\.0\.1 is not a public address/],
      ["https://[::1]/ip/1", /::1 is not a public address/],
      ["https://0x7f.1/ip/1", /127\.0\.0\.1 is not a public address/],
      ["https://169.254.169.254/latest", /not a public address/],
      ["https://intranet.example.test/ip/1", /10\.1\.2\.3 is not a public/],
      ["https://mixed.example.test/ip/1", /127\.0\.0\.1 is not a public/],
      ["https://v6inner.example.test/ip/1", /fd00::1 is not a public/],
      ["https://nothing.example.test/ip/1", /does not resolve/],
      ["file:///etc/passwd", /only https/],
    ];
    for (const [url, reason] of refused) {
      match(await refusal(url) ?? "followed", reason, url);
    }
  } finally {
    await dns.stop();
  }
});
