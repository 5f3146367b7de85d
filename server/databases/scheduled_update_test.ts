// DATABASE_UPDATES=weekly registers one cron job (the registration seen
// through scheduleDataUpdates' `register`, so no test waits for a Monday);
// running it updates DATA_DIR from a registry on loopback and the running
// server's engine answers from the new data. Off registers nothing; a
// process that does not win the week's claim (scaled out: another one
// runs it) fetches nothing.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  FIXTURE_CITY,
  publishBoth,
  startRegistry,
} from "../../tests/helpers/npm_registry.ts";
import { seedFeatures } from "../../tests/helpers/feature_cache.ts";
import { loadConfig } from "../config.ts";
import { openEmbedded } from "../embedded.ts";
import { ALL_OPTIONS } from "../enrichment/types.ts";
import { GEO_PACKAGE } from "./bundled.ts";
import { packageInUse } from "./installed.ts";
import {
  type CronRegister,
  scheduleDataUpdates,
  UPDATE_SCHEDULE,
} from "./scheduled_update.ts";

const NEW = "2.3.2026112700";

interface Registered {
  name: string;
  schedule: string;
  handler: () => Promise<void>;
}

function recorder(): { register: CronRegister; registered: Registered[] } {
  const registered: Registered[] = [];
  return {
    registered,
    register: (name, schedule, handler) =>
      registered.push({ name, schedule, handler }),
  };
}

Deno.test("DATABASE_UPDATES=weekly: the weekly job updates the data and the server takes it up", async () => {
  const registry = await startRegistry();
  await publishBoth(registry, NEW);
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-cron-" });
  await seedFeatures(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_UPDATES: "weekly",
    DATABASE_REGISTRY_URL: registry.url,
    DATABASE_CHECK_SECONDS: "3600",
  });
  const parts = await openEmbedded(config);
  try {
    const { register, registered } = recorder();
    scheduleDataUpdates(config, parts.followDataUpdates(), register);
    assertEquals(
      registered.map(({ name, schedule }) => [name, schedule]),
      [["update databases", UPDATE_SCHEDULE]],
    );
    assertEquals(UPDATE_SCHEDULE, "30 4 * * 1");
    ok(!parts.engine.data.version.includes(NEW));

    await registered[0].handler();
    assertEquals(packageInUse(GEO_PACKAGE, dataDir).version, NEW);
    ok(parts.engine.data.version.includes(`DB-IP Lite City ${NEW}`));
    const answer = await parts.engine.enrich("8.8.8.8", {
      ...ALL_OPTIONS,
      domain: false,
    });
    assertEquals(answer.city, FIXTURE_CITY);
  } finally {
    await parts.close();
    await registry.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("DATABASE_UPDATES=off registers nothing; a process without the week's claim fetches nothing", async () => {
  const registry = await startRegistry();
  await publishBoth(registry, NEW);
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-cron-" });
  try {
    const off = recorder();
    const follow = {
      claimSchedule: () => Promise.resolve(false),
      updated: () => Promise.reject(new Error("not claimed: nothing to take")),
    };
    const env = { DATA_DIR: dataDir, DATABASE_REGISTRY_URL: registry.url };
    scheduleDataUpdates(loadConfig(env), follow, off.register);
    assertEquals(off.registered, []);

    const weekly = recorder();
    scheduleDataUpdates(
      loadConfig({ ...env, DATABASE_UPDATES: "weekly" }),
      follow,
      weekly.register,
    );
    await weekly.registered[0].handler();
    assertEquals(registry.requests, []);
    assertEquals(packageInUse(GEO_PACKAGE, dataDir).downloaded, false);
  } finally {
    await registry.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
