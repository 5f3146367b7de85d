// Scaled out (DATABASE_URL), every process reads the deployment's data
// release: the version of each bundled database, one row in PostgreSQL
// (storage/pg/pg_data_release.ts). A process starts by publishing what its
// DATA_DIR holds (a release only moves forward, so a newer image or an
// update made while it was down wins), then takes the release up: the
// versions its DATA_DIR lacks are fetched from the registry and checked as
// update-databases checks them, and current.json names them. An update (the
// command or the weekly schedule, in any one process) publishes what it
// switched to; every process is told (NOTIFY, and a look every
// DATABASE_CHECK_SECONDS) and takes it up the same way.
import type { Config } from "../config.ts";
import { type EngineData, loadEngineData } from "../enrichment/engine.ts";
import type { PgDataRelease } from "../storage/pg/pg_data_release.ts";
import { logError } from "../log.ts";
import {
  BUNDLED_PACKAGES,
  type PackageVersions,
  sameVersions,
} from "./bundled.ts";
import type { DataSource } from "./data_watch.ts";
import { packagesInUse, readCurrent } from "./installed.ts";
import { removeOld, switchTo } from "./update.ts";
import { fetchOnThread } from "./update_thread.ts";
import { writeUpdateStatus } from "./update_status.ts";

/** What a release reads from the settings. */
export type ReleaseSettings = Pick<
  Config,
  | "dataDir"
  | "geoDb"
  | "asnDb"
  | "overridesPath"
  | "lists"
  | "databaseRegistryUrl"
>;

/** One text per set of versions, whatever the order of its packages. */
export function versionsKey(versions: PackageVersions): string {
  return JSON.stringify(
    BUNDLED_PACKAGES.filter((pkg) => versions[pkg.name])
      .map((pkg) => [pkg.name, versions[pkg.name]]),
  );
}

/**
 * The versions of the packages this process reads (not those GEO_DB /
 * ASN_DB replace): `wanted`'s where it names them, else those in use.
 */
export function versionsToRead(
  settings: ReleaseSettings,
  wanted: PackageVersions,
): PackageVersions {
  const inUse = packagesInUse(settings);
  return Object.fromEntries(
    Object.entries(inUse).map(([name, version]) => [
      name,
      wanted[name] ?? version,
    ]),
  );
}

/** Loads `versions` of the packages, fetching what DATA_DIR lacks. */
export async function loadVersions(
  settings: ReleaseSettings,
  versions: PackageVersions,
): Promise<EngineData> {
  await fetchOnThread(settings, versions);
  return await loadEngineData({ ...settings, packages: versions });
}

/**
 * Makes DATA_DIR read `release`: fetched where missing, named in
 * current.json. How it went is kept for the operator (/api/config
 * `data.lastUpdate`, as an update's outcome is).
 */
async function takeRelease(
  settings: ReleaseSettings,
  release: PackageVersions,
): Promise<void> {
  const before = packagesInUse(settings);
  const wanted = versionsToRead(settings, release);
  if (sameVersions(before, wanted)) return;
  try {
    await fetchOnThread(settings, wanted);
  } catch (error) {
    await writeUpdateStatus(settings.dataDir, {
      at: new Date().toISOString(),
      ok: false,
      message: "the data every process is to read (recorded in " +
        `PostgreSQL) cannot be read here: ${(error as Error).message}; ` +
        "this process answers from its own data until it can",
    });
    throw error;
  }
  await switchTo(settings.dataDir, {
    ...readCurrent(settings.dataDir),
    ...wanted,
  });
  await removeOld(settings.dataDir, [wanted, before]);
  await writeUpdateStatus(settings.dataDir, {
    at: new Date().toISOString(),
    ok: true,
    message: "took up the data every process reads: " +
      Object.entries(wanted).map(([name, version]) => `${name} ${version}`)
        .join(", "),
  });
}

/**
 * At a process's start: publishes what DATA_DIR holds, takes the release
 * up and loads it. A release this process cannot fetch (the registry
 * away) leaves it on its own data, said in the log; it tries again at
 * each look (releaseSource).
 */
export async function openRelease(
  settings: ReleaseSettings,
  store: PgDataRelease,
): Promise<EngineData> {
  const release = await store.publish(packagesInUse(settings));
  await takeRelease(settings, release).catch((error) =>
    logError(
      "data release: the data recorded in PostgreSQL cannot be read here, " +
        "this process answers from its own until it can:",
      error,
    )
  );
  return await loadEngineData(settings);
}

/** The release in PostgreSQL as a source of data for watchData. */
export function releaseSource(
  settings: ReleaseSettings,
  store: PgDataRelease,
): DataSource {
  return {
    loaded: versionsKey(packagesInUse(settings)),
    key: async () => versionsKey(versionsToRead(settings, await store.read())),
    async load(key) {
      const release = Object.fromEntries(JSON.parse(key));
      await takeRelease(settings, release);
      return await loadEngineData(settings);
    },
    // A registry away now may answer at the next look.
    retryFailed: true,
  };
}
