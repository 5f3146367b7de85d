// Each database the engine reads, named with its source, licence, version
// and build date: the build_epoch of an MMDB file, the date an
// ip-location-db package's version names, and for the classifier's fitted
// parameters and curated lists a hash of their contents (and the fit's date
// when the parameters carry one).
import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { DatabaseInfo } from "../../shared/wire.ts";
import params from "../classification/model_params.json" with {
  type: "json",
};
import {
  DEFAULT_LIST_PATHS,
  LABELLED_PATH,
  type ListPaths,
} from "../classification/lists.ts";
import type { MmdbFile } from "../enrichment/mmdb_database.ts";
import {
  BUNDLED_PACKAGES,
  type PackageVersions,
  versionDate,
} from "./bundled.ts";
import type { DataFiles, PackageCopy } from "./installed.ts";

export interface Described {
  files: DataFiles;
  /** The city MMDB files, in the order of files.geo. */
  geo: MmdbFile[];
  /** The ASN MMDB files, in the order they appear in files.asn. */
  asnMmdb: MmdbFile[];
  lists: ListPaths;
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The first 6 bytes of the text's SHA-256, in hex. */
const shortHash = (text: string) =>
  createHash("sha256").update(text).digest("hex").slice(0, 12);

function packageFields(copy: PackageCopy) {
  return {
    name: copy.pkg.title,
    source: `${copy.pkg.source}; npm ${copy.pkg.name}`,
    licence: copy.pkg.licence,
    url: copy.pkg.url,
    version: copy.version,
    origin: copy.downloaded ? "updated" as const : "bundled" as const,
  };
}

/** A user's own file (GEO_DB, ASN_DB). */
function ownFile(
  kind: DatabaseInfo["kind"],
  setting: string,
  path: string,
  file: MmdbFile | null,
): DatabaseInfo {
  const metadata = file?.metadata ?? null;
  return {
    kind,
    name: metadata?.databaseType ?? basename(path),
    file: path,
    source: `${setting} (your own file)`,
    licence: null,
    url: null,
    version: basename(path),
    builtAt: metadata ? isoOf(metadata.buildEpoch) : null,
    origin: "own",
  };
}

export async function describeDatabases(d: Described): Promise<DatabaseInfo[]> {
  const geoCopy = d.files.packages.find((c) => c.pkg.kind === "geolocation");
  const asnCopy = d.files.packages.find((c) => c.pkg.kind === "asn");
  const databases: DatabaseInfo[] = d.files.geo.map((path, i) =>
    geoCopy
      ? {
        kind: "geolocation",
        ...packageFields(geoCopy),
        file: basename(path),
        builtAt: isoOf(d.geo[i].metadata.buildEpoch),
      }
      : ownFile("geolocation", "GEO_DB", path, d.geo[i])
  );
  if (asnCopy) {
    databases.push({
      kind: "asn",
      ...packageFields(asnCopy),
      file: asnCopy.pkg.files.join(", "),
      builtAt: versionDate(asnCopy.version)?.toISOString() ?? null,
    });
  } else {
    let mmdb = 0;
    for (const path of d.files.asn) {
      const file = path.endsWith(".mmdb") ? d.asnMmdb[mmdb++] : null;
      databases.push(ownFile("asn", "ASN_DB", path, file));
    }
  }
  databases.push(
    describeModel(),
    await describeLists(d.lists),
    await describeLabels(),
  );
  return databases;
}

/** Linnaeus's hand labels (train split), which answer for the ASes they name. */
async function describeLabels(): Promise<DatabaseInfo> {
  return {
    kind: "classifier",
    name: "Linnaeus AS labels",
    file: basename(LABELLED_PATH),
    source: "NU-AquaLab/linnaeus release 202506, its train split, mapped " +
      "to network types by `deno task fit:classifier` (eval/linnaeus/)",
    licence: "MIT",
    url: "https://github.com/NU-AquaLab/linnaeus",
    version: shortHash(await Deno.readTextFile(LABELLED_PATH)),
    builtAt: null,
    origin: "bundled",
  };
}

function describeModel(): DatabaseInfo {
  const fitted = params.fitted as Record<string, unknown>;
  return {
    kind: "classifier",
    name: "Network classifier model",
    file: "model_params.json",
    source: "fitted by `deno task fit:classifier` on the curated lists " +
      "and labelled networks (eval/)",
    licence: "same as the code",
    url: null,
    version: shortHash(JSON.stringify(params)),
    builtAt: typeof fitted.date === "string" ? fitted.date : null,
    origin: "bundled",
  };
}

async function describeLists(lists: ListPaths): Promise<DatabaseInfo> {
  const paths = Object.values(lists) as string[];
  const texts = await Promise.all(paths.map((path) => Deno.readTextFile(path)));
  const own = paths.some((path, i) =>
    path !== Object.values(DEFAULT_LIST_PATHS)[i]
  );
  return {
    kind: "classifier",
    name: "Curated AS lists",
    file: paths.map((path) => basename(path)).join(", "),
    source: own
      ? "ISP_LIST, MOBILE_LIST, HOSTING_LIST, TRANSIT_LIST, EDUCATION_LIST"
      : "curated in this repository (server/data)",
    licence: own ? null : "same as the code",
    url: null,
    version: shortHash(texts.join("\n")),
    builtAt: null,
    origin: own ? "own" : "bundled",
  };
}

/** One line naming every database's version: what a job records. */
export function versionLine(databases: DatabaseInfo[]): string {
  const parts: string[] = [];
  for (const d of databases) {
    const part = `${d.name} ${d.version}`;
    if (!parts.includes(part)) parts.push(part);
  }
  return parts.join("; ");
}

/** Whole days since `builtAt`, or null when the date is unknown. */
export function ageDays(
  builtAt: string | null,
  now = Date.now(),
): number | null {
  if (!builtAt) return null;
  return Math.floor((now - Date.parse(builtAt)) / 86_400_000);
}

/**
 * The bundled packages' versions a version line names (versionLine over
 * describeDatabases names each by its title): what a job records, read
 * back by a worker that runs its chunks (job_engines.ts).
 */
export function versionsInLine(line: string): PackageVersions {
  const parts = line.split("; ");
  const versions: PackageVersions = {};
  for (const pkg of BUNDLED_PACKAGES) {
    const part = parts.find((part) => part.startsWith(`${pkg.title} `));
    if (part) versions[pkg.name] = part.slice(pkg.title.length + 1);
  }
  return versions;
}
