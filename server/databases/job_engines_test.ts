// Which engine a chunk runs on: its job's data, whatever the process reads
// now. The engines here are stand-ins that carry their data; the real ones
// run in tests/http/data_release_test.ts.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { Engine, EngineData } from "../enrichment/engine.ts";
import { ASN_PACKAGE, GEO_PACKAGE, type PackageVersions } from "./bundled.ts";
import { versionsInLine } from "./describe.ts";
import { JobEngines } from "./job_engines.ts";

const line = (geo: string, asn: string) =>
  `DB-IP Lite City ${geo}; ip-location-db ASN ${asn}; ` +
  "Network classifier model aa99; Curated AS lists c4ab";
const data = (version: string) => ({ version }) as EngineData;
const versionOf = (engine: Engine) => engine.data.version;

function engines(keepMs = 60_000) {
  const loads: PackageVersions[] = [];
  const jobEngines = new JobEngines(data(line("1.0", "1.0")), {
    make: (data) => ({ data }) as Engine,
    load: (versions) => {
      loads.push(versions);
      return Promise.resolve(
        data(line(versions[GEO_PACKAGE.name], versions[ASN_PACKAGE.name])),
      );
    },
    keepMs,
  });
  return { jobEngines, loads };
}

Deno.test("a version line gives back the bundled packages' versions", () => {
  assertEquals(versionsInLine(line("2.3.2026060513", "2.3.2026061719")), {
    [GEO_PACKAGE.name]: "2.3.2026060513",
    [ASN_PACKAGE.name]: "2.3.2026061719",
  });
  // A user's own file is no bundled package.
  assertEquals(
    versionsInLine("GeoLite2-City GeoLite2-City.mmdb; ip-location-db ASN 2.0"),
    { [ASN_PACKAGE.name]: "2.0" },
  );
  assertEquals(versionsInLine(""), {});
});

Deno.test("a chunk runs on its job's data: the current, kept, or loaded once", async () => {
  const { jobEngines, loads } = engines();
  const job = (id: number, dataVersion: string | null) => ({ id, dataVersion });
  // A job begun on the current data, or recorded none: the current.
  const first = await jobEngines.forJob(job(1, line("1.0", "1.0")));
  assertEquals(versionOf(first.engine), line("1.0", "1.0"));
  assertEquals(
    versionOf((await jobEngines.forJob(job(0, null))).engine),
    line("1.0", "1.0"),
  );

  // The data changes: a running chunk keeps its engine; the job's next
  // chunk gets the old one without loading it again; a new job the new.
  jobEngines.useData(data(line("2.0", "2.0")));
  assertEquals(versionOf(first.engine), line("1.0", "1.0"));
  first.release();
  const next = await jobEngines.forJob(job(1, line("1.0", "1.0")));
  assertEquals(versionOf(next.engine), line("1.0", "1.0"));
  next.release();
  const fresh = await jobEngines.forJob(job(2, line("2.0", "2.0")));
  assertEquals(versionOf(fresh.engine), line("2.0", "2.0"));
  assertEquals(loads, []);

  // A job begun on data this process never held: loaded once for all its
  // chunks at once.
  const [a, b] = await Promise.all([
    jobEngines.forJob(job(3, line("0.5", "1.0"))),
    jobEngines.forJob(job(3, line("0.5", "1.0"))),
  ]);
  assertEquals(versionOf(a.engine), line("0.5", "1.0"));
  ok(a.engine === b.engine);
  assertEquals(loads, [{
    [GEO_PACKAGE.name]: "0.5",
    [ASN_PACKAGE.name]: "1.0",
  }]);
  a.release();
  b.release();
});

Deno.test("an engine no chunk uses goes after a while; one that cannot load fails its chunk, and the next tries again", async () => {
  const { jobEngines, loads } = engines(0);
  const old = { id: 1, dataVersion: line("0.5", "0.5") };
  (await jobEngines.forJob(old)).release();
  await new Promise((resolve) => setTimeout(resolve, 1));
  (await jobEngines.forJob(old)).release();
  assertEquals(loads.length, 2);

  let fail = true;
  const failing = new JobEngines(data(line("1.0", "1.0")), {
    make: (data) => ({ data }) as Engine,
    load: () =>
      fail
        ? Promise.reject(new Error("the registry answered 500"))
        : Promise.resolve(data(line("0.5", "0.5"))),
  });
  const refused = await failing.forJob(old).then(
    () => null,
    (error) => error as Error,
  );
  ok(refused?.message.includes("the data this job began on"));
  ok(refused?.message.includes("the registry answered 500"));
  fail = false;
  assertEquals(
    versionOf((await failing.forJob(old)).engine),
    line("0.5", "0.5"),
  );
});
