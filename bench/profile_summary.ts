// Self time by function and by file of a V8 .cpuprofile (deno --cpu-prof),
// then a chunk's steps with what they call, as shares of the busy time (not
// idle; time after an await is not its caller's, so the steps are the
// synchronous ones).
//   deno run -A bench/profile_summary.ts file.cpuprofile [top]
// A worker process of PostgreSQL mode, profiled as the scale bench runs it:
//   BENCH_CPU_PROF=$PWD/bench/out/prof deno task bench --scale --workers=1 \
//     --results=bench/out/scale.md
//   deno run -A bench/profile_summary.ts bench/out/prof/CPU.<n>.<pid>.cpuprofile

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [path, topArg] = Deno.args;
const profile = JSON.parse(await Deno.readTextFile(path)) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const top = Number(topArg ?? 30);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const file = url.replace(/^.*\/(node_modules\/\.deno\/|main\/)/, "") ||
    "(native)";
  const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byFile.set(file, (byFile.get(file) ?? 0) + us);
}
const show = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (total ${Math.round(total / 1000)} ms)`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(7)} ms ${
        (us / total * 100).toFixed(1).padStart(5)
      }%  ${key}`,
    );
  }
};
show("self time by function", byFunction);
show("self time by file", byFile);

/** A chunk's steps: function name and file, with what they call. */
const STEPS: [string, string, string][] = [
  ["garbage collection", "(garbage collector)", ""],
  ["reading the chunk's lines", "readChunkLines", "chunk_lines.ts"],
  ["reading address cells", "#lookUp", "enrich_chunk.ts"],
  ["plain IPv4 cells", "#lookUpV4", "enrich_chunk.ts"],
  ["  a new address looked up", "#newSlot", "enrich_chunk.ts"],
  ["    its place's record found", "placeKey", "engine.ts"],
  ["    its place decoded", "place", "geo_provider.ts"],
  ["    its organisation found", "organisationKey", "engine.ts"],
  ["    its organisation's network", "tableNetwork", "engine.ts"],
  ["rows committed", "#commitRow", "enrich_chunk.ts"],
  ["  a row's result", "add", "row_results.ts"],
  ["    a row into the chunk's output", "addRow", "chunk_output.ts"],
  ["    a known key's row into it", "addKnown", "chunk_output.ts"],
  ["a chunk's output finished", "finish", "chunk_output.ts"],
  ["a chunk's parts stored", "putParts", "job_results.ts"],
  ["a job's summary", "prepare", "job_results.ts"],
];
const parent = new Map<number, number>();
for (const node of profile.nodes) {
  for (const child of node.children ?? []) parent.set(child, node.id);
}
const inclusive = new Map<string, number>();
let busy = 0;
for (const [id, us] of self) {
  if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
  busy += us;
  const steps = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url } = byId.get(at)!.callFrame;
    for (const [step, name, file] of STEPS) {
      if (functionName === name && url.endsWith(file)) steps.add(step);
    }
  }
  for (const step of steps) {
    inclusive.set(step, (inclusive.get(step) ?? 0) + us);
  }
}
console.log(`\nsteps with what they call (busy ${Math.round(busy / 1000)} ms)`);
for (const [step] of STEPS) {
  const us = inclusive.get(step) ?? 0;
  console.log(
    `${(us / 1000).toFixed(0).padStart(7)} ms ${
      (us / busy * 100).toFixed(1).padStart(5)
    }%  ${step}`,
  );
}
