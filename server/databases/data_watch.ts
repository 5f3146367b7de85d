// A running server takes new data without a restart: every
// DATABASE_CHECK_SECONDS it looks at which files it would read now
// (databases/installed.ts: current.json names a newer download), and when
// they changed loads them once (the AS features built once, on a thread of
// their own) and hands them on. A load that fails keeps the data in use,
// says why, and is not tried again until the files change once more.
import { type EngineData, loadEngineData } from "../enrichment/engine.ts";
import type { DataSources } from "../enrichment/engine.ts";
import { logError } from "../log.ts";
import { dataFiles, type DataFileSettings } from "./installed.ts";

const keyOf = (settings: DataFileSettings) => {
  const files = dataFiles(settings);
  return [...files.geo, ...files.asn].join("\n");
};

export interface DataWatch {
  /** Looks once now (tests, the scheduled update); resolves when done. */
  check(): Promise<void>;
  stop(): void;
}

export function watchData(
  sources: DataSources,
  intervalMs: number,
  onData: (data: EngineData) => void,
): DataWatch {
  let seen = keyOf(sources);
  let running: Promise<void> | null = null;
  const look = async () => {
    let key: string;
    try {
      key = keyOf(sources);
    } catch (error) {
      logError("data update: cannot tell which files to read:", error);
      return;
    }
    if (key === seen) return;
    seen = key;
    try {
      const data = await loadEngineData(sources);
      onData(data);
      console.log(`data updated without a restart: ${data.version}`);
    } catch (error) {
      logError(
        "data update: the new data cannot be loaded, the old stays:",
        error,
      );
    }
  };
  const check = () => running ??= look().finally(() => running = null);
  const timer = setInterval(check, intervalMs);
  Deno.unrefTimer(timer);
  return { check, stop: () => clearInterval(timer) };
}
