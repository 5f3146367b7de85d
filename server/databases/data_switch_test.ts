// Lookups answer promptly while a running server switches to new data:
// the ASN tables of the new version (the real bundled CSVs, under a new
// version number) are read on a thread of their own, so no gap between
// two answers comes near the time reading them on this thread takes.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadAsnTable } from "../enrichment/asn_table.ts";
import { startTestApp } from "../../tests/helpers/test_app.ts";
import { ASN_PACKAGE, bundledDir } from "./bundled.ts";
import { filesSource, watchData } from "./data_watch.ts";
import { copyDir, dataFiles } from "./installed.ts";
import { switchTo } from "./update.ts";

const NEW = "2.3.2026112700";

Deno.test("lookups answer promptly while the server switches to new data", async () => {
  const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: "0" });
  try {
    const { config, engine } = t.deps;
    // As the server follows DATA_DIR (embedded.ts).
    const watch = watchData(
      filesSource(config),
      3_600_000,
      (data) => engine.useData(data),
    );
    // What reading the tables here would hold this thread for.
    const started = performance.now();
    await loadAsnTable(dataFiles(config).asn);
    const parseMs = performance.now() - started;

    // A new version of the ASN package in DATA_DIR, as update-databases
    // leaves it.
    const dir = copyDir(config.dataDir, ASN_PACKAGE, NEW);
    await Deno.mkdir(dir, { recursive: true });
    for (const file of ASN_PACKAGE.files) {
      await Deno.copyFile(join(bundledDir(ASN_PACKAGE), file), join(dir, file));
    }
    await Deno.writeTextFile(
      join(dir, "package.json"),
      JSON.stringify({ name: ASN_PACKAGE.name, version: NEW }),
    );
    await switchTo(config.dataDir, { [ASN_PACKAGE.name]: NEW });

    let switched = false;
    const switching = watch.check().then(() => switched = true);
    const gaps: number[] = [];
    let last = performance.now();
    while (!switched) {
      // Requests come from the network: each one a turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const response = await t.app.request("/api/lookup?ip=8.8.8.8&fields=asn");
      const body = await response.json();
      assertEquals([response.status, body.success], [200, true]);
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    await switching;
    watch.stop();
    ok(engine.data.version.includes(`ip-location-db ASN ${NEW}`));
    const longest = Math.max(...gaps);
    ok(
      gaps.length > 10 && longest < parseMs / 4,
      `${gaps.length} answers, longest gap ${Math.round(longest)} ms; ` +
        `reading the tables here takes ${Math.round(parseMs)} ms`,
    );
  } finally {
    await t.close();
  }
});
