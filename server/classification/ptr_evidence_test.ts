import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ptrHint } from "./ptr_evidence.ts";

Deno.test("residential pool names look dynamic", () => {
  for (
    const name of [
      "c-73-12-1-5.hsd1.ca.comcast.net",
      "pool-100-2-3-4.nycmny.fios.verizon.net",
      "dslb-088-064-012-123.088.pools.vodafone-ip.de",
      "p5b0c1d2e.dip0.t-ipconnect.de",
      "host81-152-10-20.range81-152.btcentralplus.com",
      "cpc1-brnt1-2-0-cust55.4-2.cable.virginm.net",
      "ftth12.example.net",
      "dyn-1-2.example.org",
    ]
  ) assertEquals(ptrHint(name), "dynamic", name);
});

Deno.test("static and business names are static, static wins", () => {
  for (
    const name of [
      "static-1-2-3-4.dsl.example.net",
      "mail.acme-corp.example.com",
      "vpn.lawfirm.example",
      "gw1.customer.example.net",
      "biz-203-0-113-7.example.net",
    ]
  ) assertEquals(ptrHint(name), "static", name);
});

Deno.test("plain names and brand words in the domain say nothing", () => {
  assertEquals(ptrHint(null), null);
  assertEquals(ptrHint("www"), null);
  assertEquals(ptrHint("intranet.cable.com"), null);
  assertEquals(ptrHint("poolside.resort.example.com"), null);
});

Deno.test("the address written backwards counts as encoded", () => {
  assertEquals(ptrHint("4-3-2-1.example.net", "1.2.3.4"), "dynamic");
  assertEquals(ptrHint("x001002003004.example.net", "1.2.3.4"), "dynamic");
});
