// Messages between the runner (main thread) and a job worker.
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import type { EngineData } from "../enrichment/engine.ts";
import type { JobRecord } from "../storage/store.ts";

export type ToWorker =
  | {
    type: "start";
    jobId: number;
    dbPath: string;
    uploadsDir: string;
    checkpointRows: number;
    engineData: EngineData;
    dns: DnsSettings;
  }
  | { type: "cancel" };

export type FromWorker =
  | { type: "progress"; job: JobRecord }
  | { type: "done"; outcome: string }
  | { type: "error"; message: string };
