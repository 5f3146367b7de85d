import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type CellAddress, cellNote, readIpCell } from "./ip_cell.ts";

/** The address looked up (or host name), and whether it is public. */
function read(cell: string) {
  const r: CellAddress = readIpCell(cell);
  return r.kind === "hostname"
    ? { hostname: r.hostname }
    : { ip: r.parsed.ip, ok: r.parsed.ok };
}

Deno.test("X-Forwarded-For takes the first public address and says so", () => {
  const first = readIpCell("81.2.69.142, 10.0.0.1");
  assertEquals(read("81.2.69.142, 10.0.0.1"), { ip: "81.2.69.142", ok: true });
  assertEquals(
    first.note,
    "Forwarded chain of 2 addresses; used the first address, 81.2.69.142",
  );
  const later = readIpCell("10.0.0.1, 192.168.1.5,81.2.69.142, 8.8.8.8");
  assertEquals(
    read("10.0.0.1, 192.168.1.5,81.2.69.142, 8.8.8.8").ip,
    "81.2.69.142",
  );
  assertEquals(
    later.note,
    "Forwarded chain of 4 addresses; used the first public address (entry 3), 81.2.69.142",
  );
});

Deno.test("a chain with no public address fails with the first entry's reason", () => {
  const r = readIpCell("10.0.0.1, 127.0.0.1");
  assertEquals(r.kind, "address");
  if (r.kind !== "address") return;
  assertEquals(r.parsed.ok, false);
  assertEquals(r.parsed.ip, "10.0.0.1");
  assertEquals(r.note, "Forwarded chain of 2 addresses with no public one");
});

Deno.test("Forwarded header entries and IPv6 in chains", () => {
  assertEquals(
    read('for="[2001:4860:4860::8888]:4711";proto=https, for=10.0.0.1'),
    { ip: "2001:4860:4860::8888", ok: true },
  );
  assertEquals(read("for=192.0.2.60;proto=http;by=203.0.113.43, 81.2.69.142"), {
    ip: "81.2.69.142",
    ok: true,
  });
});

Deno.test("quotes, brackets and ports around an address, and what was dropped", () => {
  const cells: [string, string][] = [
    ['"81.2.69.142"', "Quotes dropped"],
    ["'81.2.69.142'", "Quotes dropped"],
    ["<81.2.69.142>", "Brackets dropped"],
    ["(81.2.69.142)", "Brackets dropped"],
    ["[81.2.69.142]", "Brackets dropped"],
    [' "81.2.69.142:8080" ', "Spaces, quotes and port 8080 dropped"],
  ];
  for (const [cell, dropped] of cells) {
    assertEquals(read(cell), { ip: "81.2.69.142", ok: true }, cell);
    assertEquals(
      readIpCell(cell).note,
      `${dropped}; looked up as 81.2.69.142`,
      cell,
    );
  }
  assertEquals(read("[2001:4860:4860::8888]:443"), {
    ip: "2001:4860:4860::8888",
    ok: true,
  });
  assertEquals(
    readIpCell("[2001:db8::1]:80").note,
    "Brackets and port 80 dropped; looked up as 2001:db8::1",
  );
});

Deno.test("a cell that is the address as it stands has no note", () => {
  for (const cell of ["81.2.69.142", "2001:4860:4860::8888"]) {
    assertEquals(cellNote(cell, cell), null);
    assertEquals(readIpCell(cell).note, null);
  }
  assertEquals(
    cellNote("1.2.3.4:443", "1.2.3.4"),
    "Port 443 dropped; looked up as 1.2.3.4",
  );
  assertEquals(
    cellNote(" 9.9.9.9 ", "9.9.9.9"),
    "Spaces dropped; looked up as 9.9.9.9",
  );
  assertEquals(
    cellNote("2001:4860:4860:0:0:0:0:8888", "2001:4860:4860::8888"),
    "Written in another form; looked up as 2001:4860:4860::8888",
  );
});

Deno.test("IPv4-mapped IPv6 is looked up as IPv4 and says so", () => {
  const r = readIpCell("::ffff:81.2.69.142");
  assertEquals(read("::ffff:81.2.69.142"), { ip: "81.2.69.142", ok: true });
  assertEquals(r.note, "IPv4-mapped IPv6 address; looked up as 81.2.69.142");
  assertEquals(read("[::FFFF:81.2.69.142]:80").ip, "81.2.69.142");
});

Deno.test("host names are detected, to be resolved forward", () => {
  assertEquals(read("mail.example.com"), { hostname: "mail.example.com" });
  assertEquals(read("Mail.Example.COM."), { hostname: "mail.example.com" });
  assertEquals(read("smtp.example.co.uk:25"), {
    hostname: "smtp.example.co.uk",
  });
  assertEquals(
    readIpCell("mail.example.com").note,
    "Host name mail.example.com; resolved to an address (A, then AAAA)",
  );
});

Deno.test("not addresses and not host names stay invalid", () => {
  for (
    const cell of [
      "1.2.3.999",
      "localhost",
      "hello",
      "",
      "-",
      "a..b.com",
      "1.2.3",
    ]
  ) {
    const r = readIpCell(cell);
    assertEquals(r.kind, "address", cell);
    if (r.kind === "address") assertEquals(r.parsed.ok, false, cell);
  }
  // Private addresses keep their reason.
  const r = readIpCell("192.168.0.1");
  if (r.kind === "address") {
    assertEquals(r.parsed.ok, false);
    assertEquals(r.parsed.ok ? "" : r.parsed.failure.range, "private");
  }
});
