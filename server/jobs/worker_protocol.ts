// Messages between the runner (main thread) and a pooled job worker.
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import type { EngineData } from "../enrichment/engine.ts";
import type { JobRecord } from "../storage/store.ts";

export type ToWorker =
  /** Once per worker: what every job needs, kept between jobs. */
  | {
    type: "init";
    dbPath: string;
    uploadsDir: string;
    checkpointRows: number;
    engineData: EngineData;
    dns: DnsSettings;
    /** The port of this worker's result writer thread. */
    writerPort: MessagePort;
  }
  | { type: "start"; jobId: number }
  | { type: "cancel"; jobId: number };

export type FromWorker =
  | { type: "progress"; job: JobRecord }
  | { type: "done"; jobId: number; outcome: string }
  | { type: "error"; jobId: number; message: string };
