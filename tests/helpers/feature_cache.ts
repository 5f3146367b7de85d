// The classifier's AS features of the bundled databases (as-features-KEY.json,
// built in seconds) are kept here between test servers and in-process test
// apps, so each fresh data directory starts with them instead of building
// them again. One file, in this checkout: the key holds the databases'
// paths, so another checkout's or a test's own databases' features would
// only fill a small test disk.
const FEATURE_CACHE =
  new URL("../../test-output/as-features-cache", import.meta.url).pathname;
const FEATURE_FILE = /^as-features-[0-9a-f]+\.json$/;
const OWN_DATABASES = ["GEO_DB", "ASN_DB"];

async function featureFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (FEATURE_FILE.test(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

/** Copies `from`'s feature files into `to`; `replace`: drops `to`'s others. */
async function copyFeatures(
  from: string,
  to: string,
  replace = false,
): Promise<void> {
  const names = await featureFiles(from);
  if (names.length === 0) return;
  await Deno.mkdir(to, { recursive: true });
  if (replace) {
    for (const name of await featureFiles(to)) {
      if (!names.includes(name)) await Deno.remove(`${to}/${name}`);
    }
  }
  for (const name of names) {
    const target = `${to}/${name}`;
    if (await Deno.stat(target).then(() => true, () => false)) continue;
    // A temporary name first: a parallel reader never sees half a file.
    // Its own name per copy: test files in parallel share a process.
    const temporary = `${target}.${crypto.randomUUID()}`;
    await Deno.copyFile(`${from}/${name}`, temporary);
    await Deno.rename(temporary, target);
  }
}

/** Gives a fresh data directory the cached features, before it starts. */
export function seedFeatures(dataDir: string): Promise<void> {
  return copyFeatures(FEATURE_CACHE, dataDir);
}

/** Keeps what `dataDir` built for the bundled databases, once it started. */
export async function keepFeatures(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<void> {
  if (OWN_DATABASES.some((name) => env[name])) return;
  // Databases updated into the directory (update-databases) are not the
  // bundled ones either.
  if (await Deno.stat(`${dataDir}/databases/current.json`).catch(() => null)) {
    return;
  }
  await copyFeatures(dataDir, FEATURE_CACHE, true);
}
