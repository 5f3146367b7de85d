import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { describeAccessConfig, loadAccessConfig } from "./access_config.ts";

Deno.test("defaults: private jobs, no lock, open lookup API, generated secret", () => {
  assertEquals(loadAccessConfig({}), {
    sessionSecret: undefined,
    jobsVisibility: "private",
    accessPassword: undefined,
    lookupApiKeys: [],
    allowedHosts: [],
  });
  // Empty values are unset, as for every other variable.
  assertEquals(
    loadAccessConfig({
      SESSION_SECRET: "",
      JOBS_VISIBILITY: " ",
      ACCESS_PASSWORD: "",
      LOOKUP_API_KEYS: " , ",
      ALLOWED_HOSTS: "",
    }),
    loadAccessConfig({}),
  );
});

Deno.test("values are read, keys split on commas and deduplicated", () => {
  const config = loadAccessConfig({
    SESSION_SECRET: "s".repeat(40),
    JOBS_VISIBILITY: "Shared",
    ACCESS_PASSWORD: "correct horse",
    LOOKUP_API_KEYS:
      "key-aaaaaaaaaaaaaaaa, key-bbbbbbbbbbbbbbbb,key-aaaaaaaaaaaaaaaa",
    ALLOWED_HOSTS: "Enrich.Example.com, 10.0.0.5:5000,[fd00::1]",
  });
  assertEquals(config.sessionSecret, "s".repeat(40));
  assertEquals(config.jobsVisibility, "shared");
  assertEquals(config.accessPassword, "correct horse");
  assertEquals(config.lookupApiKeys, [
    "key-aaaaaaaaaaaaaaaa",
    "key-bbbbbbbbbbbbbbbb",
  ]);
  assertEquals(config.allowedHosts, [
    "enrich.example.com",
    "10.0.0.5:5000",
    "[fd00::1]",
  ]);
  assertEquals(
    describeAccessConfig(config),
    "sessionSecret=set jobsVisibility=shared accessPassword=set " +
      "lookupApiKeys=2 allowedHosts=enrich.example.com,10.0.0.5:5000,[fd00::1]",
  );
});

Deno.test("bad values stop the server with the variable named", () => {
  throws(
    () => loadAccessConfig({ SESSION_SECRET: "short" }),
    /SESSION_SECRET must be at least 32 characters \(got 5\)/,
  );
  throws(
    () => loadAccessConfig({ ACCESS_PASSWORD: "hunter2" }),
    (error: Error) =>
      /ACCESS_PASSWORD must be at least 12 characters \(got 7\)/.test(
        error.message,
      ) && !error.message.includes("hunter2"),
  );
  for (
    const bad of ["http://a.example", "a.example/path", "a b", "x@a.example"]
  ) {
    throws(
      () => loadAccessConfig({ ALLOWED_HOSTS: `ok.example,${bad}` }),
      /ALLOWED_HOSTS entry 2 \(".*"\) must be a host name or address/,
      bad,
    );
  }
  throws(
    () => loadAccessConfig({ JOBS_VISIBILITY: "public" }),
    /JOBS_VISIBILITY must be "private" or "shared", got "public"/,
  );
  throws(
    () => loadAccessConfig({ LOOKUP_API_KEYS: "goodkey-1234567890,short" }),
    /LOOKUP_API_KEYS entry 2 must be 16 to 200 characters/,
  );
  // A key with a space or a quote would not survive ?key= or a header.
  throws(
    () => loadAccessConfig({ LOOKUP_API_KEYS: "has space in it 123456" }),
    (error: Error) =>
      /LOOKUP_API_KEYS entry 1/.test(error.message) &&
      !error.message.includes("has space"),
  );
});
