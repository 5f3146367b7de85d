// A running server takes new data without a restart: every
// DATABASE_CHECK_SECONDS (and when told, check()) it asks its source which
// data it would read now (embedded: the files current.json names; scaled
// out: the release recorded in PostgreSQL, release.ts), and when that
// changed loads it once (the AS features built once, on a thread of their
// own) and hands it on. A load that fails keeps the data in use and says
// why; it is tried again when the source says to.
import {
  type DataSources,
  type EngineData,
  loadEngineData,
} from "../enrichment/engine.ts";
import { logError } from "../log.ts";
import { dataFiles, type DataFileSettings } from "./installed.ts";

export interface DataSource {
  /** The key of the data in use now. */
  loaded: string;
  /** Names the data to read now; loaded when it changes. */
  key(): string | Promise<string>;
  /** Loads the data `key` names. */
  load(key: string): Promise<EngineData>;
  /** A failed load is tried at each check (else once the key changes). */
  retryFailed?: boolean;
}

export interface DataWatch {
  /** Looks once now; resolves when done. */
  check(): Promise<void>;
  stop(): void;
}

const filesKey = (settings: DataFileSettings) => {
  const files = dataFiles(settings);
  return [...files.geo, ...files.asn].join("\n");
};

/** The embedded mode's source: the files DATA_DIR says to read. */
export function filesSource(sources: DataSources): DataSource {
  return {
    loaded: filesKey(sources),
    key: () => filesKey(sources),
    load: () => loadEngineData(sources),
  };
}

export function watchData(
  source: DataSource,
  intervalMs: number,
  onData: (data: EngineData) => void,
): DataWatch {
  let seen = source.loaded;
  let failed: string | null = null;
  let running: Promise<void> | null = null;
  const look = async () => {
    let key: string;
    try {
      key = await source.key();
    } catch (error) {
      logError("data update: cannot tell which data to read:", error);
      return;
    }
    if (key === seen && !(source.retryFailed && failed === key)) return;
    seen = key;
    try {
      const data = await source.load(key);
      failed = null;
      onData(data);
      console.log(`data updated without a restart: ${data.version}`);
    } catch (error) {
      if (failed !== key) {
        logError(
          "data update: the new data cannot be loaded, the old stays:",
          error,
        );
      }
      failed = key;
    }
  };
  const check = () => running ??= look().finally(() => running = null);
  const timer = setInterval(check, intervalMs);
  Deno.unrefTimer(timer);
  return { check, stop: () => clearInterval(timer) };
}
