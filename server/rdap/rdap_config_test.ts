import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { loadRdapConfig, RDAP_DEFAULTS } from "./rdap_config.ts";

Deno.test("RDAP is off by default, with the documented defaults", () => {
  assertEquals(loadRdapConfig({}), RDAP_DEFAULTS);
  assertEquals(RDAP_DEFAULTS, {
    enabled: false,
    url: "https://rdap.org",
    rate: 2,
    cacheDays: 30,
  });
});

Deno.test("RDAP=on with a registry's base URL, rate and cache age", () => {
  assertEquals(
    loadRdapConfig({
      RDAP: "ON",
      RDAP_URL: "https://rdap.arin.net/registry/",
      RDAP_RATE: "0.5",
      RDAP_CACHE_DAYS: "0",
    }),
    {
      enabled: true,
      url: "https://rdap.arin.net/registry",
      rate: 0.5,
      cacheDays: 0,
    },
  );
});

Deno.test("wrong values are refused naming the variable", () => {
  throws(
    () => loadRdapConfig({ RDAP: "maybe" }),
    /RDAP must be on or off, got "maybe"/,
  );
  throws(
    () => loadRdapConfig({ RDAP_URL: "rdap.org" }),
    /RDAP_URL must be an http\(s\) URL/,
  );
  throws(
    () => loadRdapConfig({ RDAP_URL: "ftp://rdap.org" }),
    /RDAP_URL must be an http\(s\) URL/,
  );
  throws(
    () => loadRdapConfig({ RDAP_RATE: "0" }),
    /RDAP_RATE must be a number of requests per second above 0, got "0"/,
  );
  throws(() => loadRdapConfig({ RDAP_RATE: "fast" }), /RDAP_RATE/);
  throws(
    () => loadRdapConfig({ RDAP_CACHE_DAYS: "-1" }),
    /RDAP_CACHE_DAYS must be a number of days/,
  );
});
