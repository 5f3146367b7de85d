// Messages between the embedded runner (main thread) and its pooled job
// threads (job_worker.ts).
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import type { EngineData } from "../enrichment/engine.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { RdapConfig } from "../rdap/rdap_config.ts";

export type ToWorker =
  /** Once per thread: what every chunk needs, kept between chunks. */
  | {
    type: "init";
    dbPath: string;
    /** Where the results' part files go (results/ under it). */
    dataDir: string;
    uploadsDir: string;
    checkpointRows: number;
    engineData: EngineData;
    dns: DnsSettings;
    /** Registration data settings (RDAP); rdapPort when it is on. */
    rdap: RdapConfig;
    /** Tokens of the process's RDAP rate limit (shared_pacer.ts). */
    rdapPort: MessagePort | null;
  }
  /** Runs a chunk of a job from its last checkpoint. */
  | { type: "chunk"; jobId: number; chunk: number }
  | { type: "cancel"; jobId: number };

export type FromWorker =
  | { type: "progress"; job: JobRecord }
  /** The chunk ended: done, or stopped because its job did. */
  | { type: "done"; jobId: number; outcome: string }
  | { type: "error"; jobId: number; message: string };
