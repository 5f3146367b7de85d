import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { failureMessage } from "../../shared/failures.ts";
import ipaddr from "ipaddr.js";
import {
  dottedQuadAt,
  ipv4Text,
  ipv4ToNumber,
  ipv6ToWords,
  parsedIpv4,
  parseIp,
  stripPort,
} from "./ip_input.ts";

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

Deno.test("ipv6ToWords reads every IPv6 form as ipaddr.js does", () => {
  const words = (ip: string) => {
    const p = ipaddr.IPv6.parse(ip).parts;
    return [0, 2, 4, 6].map((i) => ((p[i] << 16) | p[i + 1]) >>> 0);
  };
  const texts = [
    "::",
    "::1",
    "1::",
    "2001:db8::",
    "2001:DB8::8a2e:370:7334",
    "2001:0db8:0000:0000:0000:ff00:0042:8329",
    "fe80::1:2:3:4:5:6",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "::ffff:1.2.3.4",
    "64:ff9b::192.0.2.33",
  ];
  // Seeded random addresses, in canonical and in full form.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 65536;
  for (let n = 0; n < 500; n++) {
    const groups = Array.from(
      { length: 8 },
      () => (n % 3 === 0 && random() % 2 ? 0 : random()).toString(16),
    );
    texts.push(groups.join(":"));
    texts.push(ipaddr.IPv6.parse(groups.join(":")).toRFC5952String());
  }
  for (const text of texts) assertEquals(ipv6ToWords(text), words(text), text);
});

Deno.test("parseIp reads IPv6 hex groups as ipaddr.js does", () => {
  // What parseIp gave for IPv6 text through ipaddr.js alone.
  const expected = (text: string) => {
    if (!ipaddr.IPv6.isValid(text)) return { ok: false, ip: text };
    const parsed = ipaddr.IPv6.parse(text);
    const addr = parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
    const range = addr.range();
    const ip = addr.toString();
    return ["unicast", "6to4", "teredo"].includes(range)
      ? { ok: true, ip, version: addr.kind() === "ipv4" ? 4 : 6 }
      : { ok: false, ip, failure: { kind: "reserved", range } };
  };
  const texts = [
    "::",
    "::1",
    "1::",
    "::ffff:0:102:304",
    "0:0:0:0:0:ffff:102:304",
    "64:ff9b::c000:221",
    "2001::1",
    "2001:2::1",
    "2001:db8::",
    "2002:c000:221::1",
    "fe80::1",
    "FE80:0:0:0:0:0:0:1",
    "ff02::1",
    "fc00::",
    "1:0:0:1:0:0:0:1",
    "1:0:0:1:0:0:1:1",
    "0:0:1:0:0:1:0:0",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::1",
    ":1:2:3:4:5:6:7",
  ];
  // Seeded random addresses: zero runs, special prefixes, upper case,
  // leading zeros, and a zero run written as "::" wherever it is.
  let seed = 11;
  const random = (n: number) =>
    (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const prefixes = [0x2001, 0x2002, 0xfe80, 0xff00, 0xfc00, 0x64, 0x100, 0];
  for (let n = 0; n < 3000; n++) {
    const groups = Array.from(
      { length: 8 },
      () => random(3) === 0 ? 0 : random(65536),
    );
    if (random(2)) groups[0] = prefixes[random(prefixes.length)];
    if (random(4) === 0) groups[1] = random(40);
    let hex = groups.map((g) =>
      random(5) === 0 ? g.toString(16).padStart(4, "0") : g.toString(16)
    );
    if (random(3) === 0) hex = hex.map((g) => g.toUpperCase());
    texts.push(hex.join(":"));
    const zero = groups.indexOf(0);
    if (zero >= 0) {
      let end = zero + 1;
      while (end < 8 && groups[end] === 0 && random(4)) end++;
      texts.push(
        `${hex.slice(0, zero).join(":")}::${hex.slice(end).join(":")}`,
      );
    }
  }
  for (const text of texts) {
    const parsed = parseIp(text);
    const want = expected(text);
    assertEquals(
      want.ok === false && !("failure" in want)
        ? { ok: parsed.ok, ip: parsed.ip }
        : parsed,
      want,
      text,
    );
  }
});

Deno.test("dottedQuadAt reads the IPv4 text parseIp leaves as it is, and only that", () => {
  const encoder = new TextEncoder();
  const at = (text: string) => {
    // Inside other bytes, as a cell of a line.
    const bytes = encoder.encode(`x,${text},y`);
    return dottedQuadAt(bytes, 2, 2 + text.length);
  };
  const plain = [
    "8.8.8.8",
    "0.0.0.0",
    "255.255.255.255",
    "10.0.0.1",
    "1.1.1.1",
    "192.168.10.99",
    "100.64.0.200",
  ];
  for (const text of plain) {
    assertEquals(at(text), ipv4ToNumber(text), text);
    assertEquals(ipv4Text(at(text)), text);
    assertEquals(parsedIpv4(at(text), text), parseIp(text), text);
  }
  for (
    const text of [
      "",
      "1.2.3",
      "1.2.3.4.",
      ".1.2.3",
      "1..2.3",
      "01.2.3.4",
      "1.2.3.00",
      "1.2.3.256",
      "1.2.3.1000",
      " 1.2.3.4",
      "1.2.3.4:80",
      "::ffff:1.2.3.4",
      "1.2.3.4/24",
    ]
  ) {
    assertEquals(at(text), -1, text);
    // Never an address parseIp would write otherwise than the cell.
    const parsed = parseIp(text);
    ok(!parsed.ok || parsed.ip !== text, text);
  }
});
