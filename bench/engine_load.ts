// What a process pays to load the databases before it can answer: the
// engine data (geolocation ranges, ASN tables, the classifier's table) as a
// server start or a data switch loads it, in this process.
//   deno run -A bench/engine_load.ts
import { loadConfig } from "../server/config.ts";
import { loadEngineData } from "../server/enrichment/engine.ts";

const started = performance.now();
await loadEngineData(loadConfig({}));
const ms = performance.now() - started;
// /proc/self/stat: utime and stime (fields 14 and 15) in clock ticks of 1/100 s.
const stat = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
const cpu = (Number(stat[11]) + Number(stat[12])) / 100;
const hwm = Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\s+(\d+)/);
console.log(
  `loaded in ${Math.round(ms)} ms, process CPU ${cpu.toFixed(2)} s, ` +
    `VmHWM ${Math.round(Number(hwm?.[1]) / 1024)} MB`,
);
Deno.exit(0);
