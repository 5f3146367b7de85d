// Self time by function and by file of a V8 .cpuprofile (deno --cpu-prof).
//   deno run -A bench/profile_summary.ts file.cpuprofile [top]

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
