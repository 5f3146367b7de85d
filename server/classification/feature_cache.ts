// The AS features of one database version, cached in DATA_DIR: the build
// walks every range (seconds), loading the cache file takes milliseconds.
// The key is each database file's path, size and modification time, so a
// new npm package version or a user's own file rebuilds it.
import { createHash } from "node:crypto";
import { type AsFeatureColumns, AsFeatureIndex } from "./as_features.ts";

// Raised when the features' columns change.
const FORMAT = 8;

export async function databaseVersionKey(paths: string[]): Promise<string> {
  const parts = [`v${FORMAT}`];
  for (const path of paths) {
    const info = await Deno.stat(path);
    parts.push(`${path}:${info.size}:${info.mtime?.getTime() ?? 0}`);
  }
  return createHash("sha256").update(parts.join("\n")).digest("hex")
    .slice(0, 16);
}

export interface LoadedFeatures {
  index: AsFeatureIndex;
  /** Where the cache is; built: whether this call made it. */
  path: string;
  built: boolean;
  ms: number;
}

/**
 * How the features are built when not cached: buildAsFeatures over the
 * loaded tables (on the classifier's loading thread: classifier_load.ts).
 */
export type FeatureBuild = () => AsFeatureColumns | Promise<AsFeatureColumns>;

/**
 * The features of these databases: read from DATA_DIR/as-features-KEY.json,
 * or built and written there (older versions removed).
 */
export async function loadAsFeatures(
  dataDir: string,
  databasePaths: string[],
  build: FeatureBuild,
): Promise<LoadedFeatures> {
  const started = performance.now();
  const key = await databaseVersionKey(databasePaths);
  const path = `${dataDir}/as-features-${key}.json`;
  try {
    const columns = JSON.parse(await Deno.readTextFile(path));
    return {
      index: new AsFeatureIndex(columns as AsFeatureColumns),
      path,
      built: false,
      ms: performance.now() - started,
    };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const columns = await build();
  await Deno.mkdir(dataDir, { recursive: true });
  for await (const entry of Deno.readDir(dataDir)) {
    if (/^as-features-[0-9a-f]+\.json$/.test(entry.name)) {
      await Deno.remove(`${dataDir}/${entry.name}`);
    }
  }
  // Written under a temporary name first: a crash leaves no half file.
  await Deno.writeTextFile(`${path}.tmp`, JSON.stringify(columns));
  await Deno.rename(`${path}.tmp`, path);
  return {
    index: new AsFeatureIndex(columns),
    path,
    built: true,
    ms: performance.now() - started,
  };
}
