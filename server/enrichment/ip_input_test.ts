import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { failureMessage } from "../../shared/failures.ts";
import { ipv4ToNumber, parseIp, stripPort } from "./ip_input.ts";

Deno.test("stripPort takes the address out of host:port forms", () => {
  assertEquals(stripPort(" 1.2.3.4:80 "), "1.2.3.4");
  assertEquals(stripPort("[2001:db8::1]:443"), "2001:db8::1");
  assertEquals(stripPort("[2001:db8::1]"), "2001:db8::1");
  assertEquals(stripPort("2001:db8::1"), "2001:db8::1");
  assertEquals(stripPort("8.8.8.8"), "8.8.8.8");
});

Deno.test("parseIp accepts public IPv4 and IPv6, normalised", () => {
  assertEquals(parseIp("8.8.8.8"), { ok: true, ip: "8.8.8.8", version: 4 });
  assertEquals(parseIp("  8.8.4.4:53\t"), {
    ok: true,
    ip: "8.8.4.4",
    version: 4,
  });
  assertEquals(parseIp("[2001:4860:4860:0:0:0:0:8888]:443"), {
    ok: true,
    ip: "2001:4860:4860::8888",
    version: 6,
  });
  // IPv4-mapped IPv6 is the IPv4 address.
  assertEquals(parseIp("::ffff:1.1.1.1"), {
    ok: true,
    ip: "1.1.1.1",
    version: 4,
  });
});

Deno.test("parseIp rejects what is not an address", () => {
  for (
    const cell of ["", "bogus", "1.2.3", "1.2.3.256", "0x7f.0.0.1", "1::2::3"]
  ) {
    const parsed = parseIp(cell);
    assertEquals(parsed.ok, false, cell);
    if (!parsed.ok) assertEquals(parsed.failure, { kind: "invalid" });
  }
});

Deno.test("parseIp gives private and reserved ranges a reason", () => {
  const reason = (cell: string) => {
    const parsed = parseIp(cell);
    return parsed.ok ? "ok" : failureMessage(parsed.failure);
  };
  assertEquals(reason("10.1.2.3").startsWith("Private address"), true);
  assertEquals(reason("192.168.0.1").startsWith("Private address"), true);
  assertEquals(reason("127.0.0.1").startsWith("Loopback"), true);
  assertEquals(reason("::1").startsWith("Loopback"), true);
  assertEquals(reason("169.254.1.1").startsWith("Link-local"), true);
  assertEquals(reason("fe80::1").startsWith("Link-local"), true);
  assertEquals(reason("fd00::1").startsWith("Unique local"), true);
  assertEquals(reason("100.64.0.1").startsWith("Shared address"), true);
  assertEquals(
    reason("192.0.2.10").startsWith("Reserved or documentation"),
    true,
  );
  assertEquals(
    reason("203.0.113.5").startsWith("Reserved or documentation"),
    true,
  );
  assertEquals(
    reason("2001:db8::1").startsWith("Reserved or documentation"),
    true,
  );
  assertEquals(reason("224.0.0.1").startsWith("Multicast"), true);
  assertEquals(reason("0.0.0.0").startsWith("Unspecified"), true);
  const parsed = parseIp("10.1.2.3");
  assertEquals(
    parsed.ok ? null : parsed.failure,
    { kind: "reserved", range: "private" },
  );
});

Deno.test("ipv4ToNumber", () => {
  assertEquals(ipv4ToNumber("1.0.0.0"), 16777216);
  assertEquals(ipv4ToNumber("255.255.255.255"), 4294967295);
});
