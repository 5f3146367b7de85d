// Runs one job's processing and download in this thread (no HTTP, no job
// thread pool), for profiling: the job's chunks one after another, each
// committed from this thread as a job thread commits its chunk:
//   deno run -A --cpu-prof --cpu-prof-dir=bench/out/prof bench/profile_job.ts 100000
// then: deno run -A bench/profile_summary.ts bench/out/prof/<file>.cpuprofile
// It prints the CPU time of the processing, in all and per thread (Linux).
import { csvDownload } from "../server/jobs/download.ts";
import { threadJob } from "./thread_job.ts";

/** CPU time of this process, every thread (Linux /proc; else 0). */
function processCpuMs(): number {
  try {
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime (fields 14 and 15), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of each thread of this process, by name:id (Linux). */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  try {
    for (const { name: id } of Deno.readDirSync("/proc/self/task")) {
      try {
        const dir = `/proc/self/task/${id}`;
        const name = Deno.readTextFileSync(`${dir}/comm`).trim();
        const stat = Deno.readTextFileSync(`${dir}/stat`);
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        cpu.set(
          `${name}:${id}`,
          (Number(fields[11]) + Number(fields[12])) * 10,
        );
      } catch { /* the thread ended */ }
    }
  } catch { /* no /proc */ }
  return cpu;
}

const OUT = new URL("./out", import.meta.url).pathname;
const rows = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 100_000);
const job = await threadJob(rows, OUT);
const { store, results } = job;
try {
  const cpu0 = processCpuMs();
  const th0 = threadCpu();
  const t0 = performance.now();
  let outcome = "";
  for (const chunk of job.chunks) outcome = await job.run(chunk);
  const t1 = performance.now();
  const cpu = processCpuMs() - cpu0;
  for (const [thread, ms] of threadCpu()) {
    const used = ms - (th0.get(thread) ?? 0);
    if (used >= 50) console.log(`  CPU of thread ${thread}: ${used} ms`);
  }
  const response = await csvDownload(results, store.getJob(job.jobId)!);
  let bytes = 0;
  for await (const chunk of response.body!) bytes += chunk.length;
  const t2 = performance.now();
  console.log(
    `${outcome}: process ${Math.round(t1 - t0)} ms (${
      Math.round(rows / ((t1 - t0) / 1000))
    } rows/s, ${(cpu / 1000).toFixed(2)} s CPU in all threads, ${
      (cpu * 1000 / rows).toFixed(1)
    } µs a row), download ${Math.round(t2 - t1)} ms (${bytes} bytes), ` +
      (await Deno.readTextFile("/proc/self/status")).match(/VmHWM:\s+\d+ kB/)
        ?.[0],
  );
} finally {
  await job.remove();
}
