// Where the server's resident memory is, by kind of mapping (/proc/PID/smaps,
// sampled every 150 ms), at the highest point of each phase of one job: the
// upload, the job (Geolocation, Company and Network on), the download, and
// the preview pages the bench times (filtered and searched ones too) and the
// summary. RSS is not timing-sensitive, so this runs niced on a busy
// machine; it prints the server's CPU time over the job too.
//   deno run -A bench/memory_probe.ts ROWS [NAME=VALUE ...]
// NAME=VALUE pairs are the server's environment (CHUNK_ROWS=8000, ...).
// Kinds: V8 heap pages (256 KB mappings), each anonymous mapping of 8 MB or
// more by size, permissions and address (the geolocation databases' shared
// memory, glibc's thread arenas, which are 64 MB-aligned), smaller anonymous
// mappings by size, [heap] (glibc's main heap) and files. "workers" is the
// most Web Worker threads (job threads and one-shot ones) seen in a phase: a
// job thread still adding up the summary after the job shows completed is
// one of the download's and previews'.
import { generateCsv } from "./generate.ts";
import { previewTimes, sessionFetch, startJob, upload } from "./end_to_end.ts";
import { startServer } from "./server_process.ts";

const rows = Number(Deno.args[0] ?? 100000);
const extraEnv = Object.fromEntries(
  Deno.args.slice(1).map((a) => a.split("=", 2) as [string, string]),
);
const OUT = new URL("./out/", import.meta.url).pathname;
await Deno.mkdir(OUT, { recursive: true });
const file = await generateCsv(rows, OUT);
const dataDir = await Deno.makeTempDir({ dir: OUT, prefix: "probe-" });
const server = await startServer(dataDir, {
  MAX_UPLOAD_MB: String(Math.ceil(file.bytes / 1048576) + 1),
  RATE_LIMIT_PER_MINUTE: "0",
  RATE_LIMIT_BURST: "0",
  ...extraEnv,
});

type Kinds = Record<string, number>;
/** Web Worker threads of the server (Deno names them worker-N). */
function workerThreads(): number {
  let n = 0;
  for (const { name } of Deno.readDirSync(`/proc/${server.pid}/task`)) {
    try {
      const comm = Deno.readTextFileSync(
        `/proc/${server.pid}/task/${name}/comm`,
      );
      if (comm.startsWith("worker-")) n++;
    } catch { /* the thread ended */ }
  }
  return n;
}

async function sample(): Promise<{ rss: number; kinds: Kinds }> {
  const text = await Deno.readTextFile(`/proc/${server.pid}/smaps`);
  const kinds: Kinds = {};
  let kind = "";
  let rss = 0;
  for (const line of text.split("\n")) {
    const head = line.match(
      /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/,
    );
    if (head) {
      const size = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
      const path = head[5];
      if (path === "[heap]") kind = "heap";
      else if (path.startsWith("/dev/shm") || path.includes("memfd")) {
        kind = "shm:" + path.split(" ")[0];
      } else if (path.startsWith("/")) {
        kind = path.includes("deno") && !path.endsWith(".db")
          ? "deno-binary"
          : "file:" + path.split("/").pop();
      } else if (path.startsWith("[")) kind = path;
      else if (size === 256) kind = "anon-256K(v8 page)";
      else if (size >= 8192) {
        kind = `anon ${Math.round(size / 1024)}M ${head[3]} ${
          head[1].slice(-7)
        }`;
      } else if (size >= 1024) kind = "anon1-8M";
      else kind = "anon<1M";
      continue;
    }
    const m = line.match(/^Rss:\s+(\d+) kB/);
    if (m) {
      const kb = Number(m[1]);
      kinds[kind] = (kinds[kind] ?? 0) + kb;
      rss += kb;
    }
  }
  return { rss, kinds };
}

const peaks: Record<string, { rss: number; kinds: Kinds }> = {};
const workers: Record<string, number> = {};
let phase = "start";
let busy = false;
const timer = setInterval(async () => {
  if (busy) return;
  busy = true;
  try {
    const s = await sample();
    if (!peaks[phase] || s.rss > peaks[phase].rss) peaks[phase] = s;
    workers[phase] = Math.max(workers[phase] ?? 0, workerThreads());
  } catch { /* ended */ }
  busy = false;
}, 150);

await new Promise((r) => setTimeout(r, 2000));
await server.resetPeak();
peaks.start = await sample();
phase = "upload";
const t0 = performance.now();
const up = await upload(server, file.path);
phase = "process";
const t1 = performance.now();
const cpu = () => {
  const stat = Deno.readTextFileSync(`/proc/${server.pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const cpu1 = cpu();
let job = await startJob(server, up.fileName);
while (job.status === "pending" || job.status === "processing") {
  await new Promise((r) => setTimeout(r, 50));
  job = await (await sessionFetch(`${server.url}/api/jobs/${job.id}`)).json();
}
const t2 = performance.now();
const cpu2 = cpu();
phase = "download";
const res = await sessionFetch(`${server.url}/api/jobs/${job.id}/download`);
let bytes = 0;
for await (const c of res.body!) bytes += c.length;
const t3 = performance.now();
phase = "preview";
await previewTimes(server, job.id, rows);
await (await sessionFetch(`${server.url}/api/jobs/${job.id}/summary`))
  .arrayBuffer();
await new Promise((r) => setTimeout(r, 500));
clearInterval(timer);
const { peak } = await server.memory();
await server.stop();
await Deno.remove(dataDir, { recursive: true });

const mb = (kb: number) => Math.round(kb / 1024);
console.log(
  `rows ${rows} job ${job.status} download ${mb(bytes / 1024)} MB; ` +
    `upload ${((t1 - t0) / 1000).toFixed(1)} s process ${
      ((t2 - t1) / 1000).toFixed(1)
    } s (server CPU ${(cpu2 - cpu1).toFixed(1)} s) download ${
      ((t3 - t2) / 1000).toFixed(1)
    } s; VmHWM ${mb(peak / 1024)} MB`,
);
const allKinds = new Set(
  Object.values(peaks).flatMap((p) => Object.keys(p.kinds)),
);
const phases = Object.keys(peaks);
console.log(["kind", ...phases].join("\t"));
console.log(["RSS", ...phases.map((p) => mb(peaks[p].rss))].join("\t"));
console.log(["workers", ...phases.map((p) => workers[p] ?? 0)].join("\t"));
for (const k of [...allKinds].sort()) {
  const vals = phases.map((p) => mb(peaks[p].kinds[k] ?? 0));
  if (vals.some((v) => v >= 2)) console.log([k, ...vals].join("\t"));
}
