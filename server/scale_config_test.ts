import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { scaleConfigFromEnv } from "./scale_config.ts";

Deno.test("no DATABASE_URL: SQLite, one process doing everything", () => {
  assertEquals(scaleConfigFromEnv({}), { databaseUrl: null, role: "all" });
  assertEquals(scaleConfigFromEnv({ DATABASE_URL: " ", ROLE: "all" }), {
    databaseUrl: null,
    role: "all",
  });
  throws(() => scaleConfigFromEnv({ ROLE: "worker" }), /needs DATABASE_URL/);
});

Deno.test("DATABASE_URL picks PostgreSQL; ROLE picks the process's part", () => {
  const url = "postgres://u:p@db:5432/enrich";
  assertEquals(scaleConfigFromEnv({ DATABASE_URL: url }), {
    databaseUrl: url,
    role: "all",
  });
  for (const role of ["api", "worker"] as const) {
    assertEquals(
      scaleConfigFromEnv({ DATABASE_URL: url, ROLE: role }).role,
      role,
    );
  }
  throws(
    () => scaleConfigFromEnv({ DATABASE_URL: url, ROLE: "both" }),
    /ROLE must be all, api or worker/,
  );
  throws(
    () => scaleConfigFromEnv({ DATABASE_URL: "mysql://db/x" }),
    /postgres:\/\//,
  );
});
