// Which copy of each bundled package the server reads: the one `deno
// install` put in node_modules, or a newer one `update-databases` unpacked
// in DATA_DIR/databases, named by DATA_DIR/databases/current.json (replaced
// by a rename, so a reader sees the old file or the new one). Scaled out,
// current.json follows the deployment's release (release.ts), and a job's
// chunks read the versions the job names (`packages`).
import { join } from "node:path";
import {
  BUNDLED_PACKAGES,
  bundledDir,
  type BundledPackage,
  compareVersions,
  type PackageVersions,
  shortName,
} from "./bundled.ts";

export interface PackageCopy {
  pkg: BundledPackage;
  version: string;
  /** The folder holding the package's files. */
  dir: string;
  /** True for a copy in DATA_DIR (update-databases), false for the bundled. */
  downloaded: boolean;
}

export function databasesDir(dataDir: string): string {
  return join(dataDir, "databases");
}

export function currentFile(dataDir: string): string {
  return join(databasesDir(dataDir), "current.json");
}

/** Where update-databases unpacks a version of a package. */
export function copyDir(
  dataDir: string,
  pkg: BundledPackage,
  version: string,
): string {
  return join(databasesDir(dataDir), shortName(pkg), version);
}

/** Package name -> version, as current.json names them ({} when none). */
export function readCurrent(dataDir: string): PackageVersions {
  let text: string;
  try {
    text = Deno.readTextFileSync(currentFile(dataDir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { packages?: Record<string, string> };
    return parsed.packages ?? {};
  } catch {
    throw new Error(
      `${currentFile(dataDir)} is not what update-databases writes: remove ` +
        "it to use the bundled databases, or run update-databases again",
    );
  }
}

/** The version of the package `deno install` put in node_modules. */
export function bundledVersion(pkg: BundledPackage): string {
  try {
    const text = Deno.readTextFileSync(`${bundledDir(pkg)}/package.json`);
    return (JSON.parse(text) as { version: string }).version;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        `the bundled database ${pkg.name} is not installed ` +
          `(run "deno install", or set GEO_DB / ASN_DB)`,
      );
    }
    throw error;
  }
}

/**
 * The newer of the bundled copy and the one current.json names; `pinned`:
 * that version, bundled or downloaded.
 */
export function packageInUse(
  pkg: BundledPackage,
  dataDir: string,
  pinned?: string,
): PackageCopy {
  const bundled: PackageCopy = {
    pkg,
    version: bundledVersion(pkg),
    dir: bundledDir(pkg),
    downloaded: false,
  };
  const version = pinned ?? readCurrent(dataDir)[pkg.name];
  const order = version ? compareVersions(version, bundled.version) : 0;
  if (!version || order === 0 || (!pinned && order < 0)) {
    return bundled;
  }
  return {
    pkg,
    version,
    dir: copyDir(dataDir, pkg, version),
    downloaded: true,
  };
}

/** GEO_DB and ASN_DB as set (null: the bundled package, or its update). */
export interface DataFileSettings {
  geoDb: string[] | null;
  asnDb: string[] | null;
  dataDir: string;
  /** Versions to read, where not the newest in DATA_DIR (a job's). */
  packages?: PackageVersions;
}

/** The files the engine reads, and the package copies they come from. */
export interface DataFiles {
  geo: string[];
  asn: string[];
  /** The bundled packages in use (none where GEO_DB / ASN_DB say files). */
  packages: PackageCopy[];
}

export function dataFiles(settings: DataFileSettings): DataFiles {
  const packages: PackageCopy[] = [];
  const files = (own: string[] | null, kind: BundledPackage["kind"]) => {
    if (own) return own;
    const pkg = BUNDLED_PACKAGES.find((p) => p.kind === kind)!;
    const copy = packageInUse(
      pkg,
      settings.dataDir,
      settings.packages?.[pkg.name],
    );
    packages.push(copy);
    return pkg.files.map((file) => join(copy.dir, file));
  };
  return {
    geo: files(settings.geoDb, "geolocation"),
    asn: files(settings.asnDb, "asn"),
    packages,
  };
}

/** The bundled packages these settings read, at the versions read. */
export function packagesInUse(settings: DataFileSettings): PackageVersions {
  return Object.fromEntries(
    dataFiles(settings).packages.map((copy) => [copy.pkg.name, copy.version]),
  );
}
