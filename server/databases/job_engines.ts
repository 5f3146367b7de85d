// Scaled out, a worker runs each chunk on the data its job began on (the
// versions the job records), whatever data the process reads now, so a job
// never mixes versions whichever workers run its chunks. The current data's
// engine serves jobs begun on it; a job begun on other versions gets an
// engine of its own, loaded once (fetched and checked when DATA_DIR lacks
// it, release.ts) and kept while its chunks run and a while after, for the
// job's next chunk. Each engine is its own object: a switch never changes
// the data under a chunk that is running.
import type { Engine, EngineData } from "../enrichment/engine.ts";
import type { PackageVersions } from "./bundled.ts";
import { versionsInLine } from "./describe.ts";
import { versionsKey } from "./release.ts";

/** An engine for a chunk; release() when the chunk ends. */
export interface EngineLease {
  engine: Engine;
  release(): void;
}

interface Held {
  engine: Promise<Engine>;
  /** Chunks running on it. */
  users: number;
  timer?: ReturnType<typeof setTimeout>;
}

export interface JobEnginesOptions {
  /** An engine over loaded data. */
  make: (data: EngineData) => Engine;
  /** Loads these versions of the bundled packages. */
  load: (versions: PackageVersions) => Promise<EngineData>;
  /** How long an engine no chunk uses is kept for the next (ms). */
  keepMs?: number;
}

// A job's chunks follow each other within seconds: long enough for the
// next one, short enough that two copies of the data do not linger.
const KEEP_MS = 60_000;

export class JobEngines {
  #current: Engine;
  #currentVersions: PackageVersions;
  #held = new Map<string, Held>();

  constructor(data: EngineData, readonly options: JobEnginesOptions) {
    this.#current = options.make(data);
    this.#currentVersions = versionsInLine(data.version);
  }

  /**
   * New jobs run on `data` from now on; the engine of the data before it
   * is kept a while for jobs begun on it.
   */
  useData(data: EngineData): void {
    const before = versionsKey(this.#currentVersions);
    if (!this.#held.has(before)) {
      const held: Held = { engine: Promise.resolve(this.#current), users: 0 };
      this.#held.set(before, held);
      this.#keep(before, held);
    }
    this.#current = this.options.make(data);
    this.#currentVersions = versionsInLine(data.version);
    const now = versionsKey(this.#currentVersions);
    clearTimeout(this.#held.get(now)?.timer);
    this.#held.delete(now);
  }

  /** The engine of the data `job` began on; loads it when not held. */
  async forJob(
    job: { id: number; dataVersion?: string | null },
  ): Promise<EngineLease> {
    // Packages the job does not name (its replica read GEO_DB / ASN_DB
    // files) are read as this process reads them.
    const recorded = versionsInLine(job.dataVersion ?? "");
    const wanted = Object.fromEntries(
      Object.entries(this.#currentVersions).map(([name, version]) => [
        name,
        recorded[name] ?? version,
      ]),
    );
    const key = versionsKey(wanted);
    if (key === versionsKey(this.#currentVersions)) {
      return { engine: this.#current, release() {} };
    }
    let held = this.#held.get(key);
    if (!held) {
      console.log(
        `job ${job.id}: loading the data it began on for its chunks ` +
          `(${job.dataVersion})`,
      );
      const loading: Held = {
        engine: this.options.load(wanted).then(this.options.make),
        users: 0,
      };
      this.#held.set(key, held = loading);
      // The next chunk tries again.
      loading.engine.catch(() => {
        if (this.#held.get(key) === loading) this.#held.delete(key);
      });
    }
    const using = held;
    using.users++;
    clearTimeout(using.timer);
    let engine: Engine;
    try {
      engine = await using.engine;
    } catch (error) {
      using.users--;
      throw new Error(
        `the data this job began on (${job.dataVersion}) cannot be loaded ` +
          `(${(error as Error).message}): once it can, press Restart; rows ` +
          "saved so far are kept",
      );
    }
    let released = false;
    return {
      engine,
      release: () => {
        if (released) return;
        released = true;
        if (--using.users === 0) this.#keep(key, using);
      },
    };
  }

  /** Drops `held` once no chunk has used it for keepMs. */
  #keep(key: string, held: Held): void {
    held.timer = setTimeout(() => {
      if (held.users === 0 && this.#held.get(key) === held) {
        this.#held.delete(key);
      }
    }, this.options.keepMs ?? KEEP_MS);
    Deno.unrefTimer(held.timer);
  }
}
