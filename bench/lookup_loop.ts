// Single lookups in this process: engine.enrich (the /api/lookup path, DNS
// off) over the 100,000 addresses of a generated benchmark file, eight
// passes; the first fills the per-network memo, the rest are warm.
//   deno run -A bench/lookup_loop.ts
import { loadConfig } from "../server/config.ts";
import { Engine, loadEngineData } from "../server/enrichment/engine.ts";
import { JOB_OPTIONS } from "./baselines.ts";
import { generateCsv, readIpCells } from "./generate.ts";

const out = await Deno.makeTempDir({ prefix: "lookup-loop-" });
try {
  const cells = await readIpCells((await generateCsv(100_000, out)).path);
  const engine = new Engine(await loadEngineData(loadConfig({})), {
    servers: [],
    timeoutMs: 1000,
    concurrency: 1,
  });
  const rates: number[] = [];
  for (let pass = 1; pass <= 8; pass++) {
    const started = performance.now();
    for (const cell of cells) await engine.enrich(cell, JOB_OPTIONS);
    const ms = performance.now() - started;
    rates.push(Math.round(cells.length / (ms / 1000)));
    if (pass === 1) console.log(`first pass (cold memo): ${Math.round(ms)} ms`);
  }
  const warm = rates.slice(1).sort((a, b) => a - b);
  console.log(
    `warm passes: best ${warm.at(-1)} lookups/s, median ${
      warm[Math.floor(warm.length / 2)]
    } lookups/s`,
  );
} finally {
  await Deno.remove(out, { recursive: true });
}
