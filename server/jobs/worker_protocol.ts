// Messages between the threads of the job pipeline: the runner (main
// thread) and a pooled job worker, and a job worker's ThreadedWriter and its
// result writer thread.
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import type { EngineData } from "../enrichment/engine.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { RdapConfig } from "../rdap/rdap_config.ts";
import type { Checkpoint, JobStart } from "./checkpoint_codec.ts";

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
    /** Registration data settings (RDAP); rdapPort when it is on. */
    rdap: RdapConfig;
    /** Tokens of the process's RDAP rate limit (shared_pacer.ts). */
    rdapPort: MessagePort | null;
  }
  | { type: "start"; jobId: number }
  | { type: "cancel"; jobId: number };

export type FromWorker =
  | { type: "progress"; job: JobRecord }
  | { type: "done"; jobId: number; outcome: string }
  | { type: "error"; jobId: number; message: string };

/**
 * Messages on the port between a ThreadedWriter and its writer thread (to
 * the thread: lists of them, in order).
 */
export type ToWriter =
  | { type: "begin"; gen: number; start: JobStart }
  | { type: "commit"; gen: number; seq: number; checkpoint: Checkpoint };

export type FromWriter =
  | { type: "committed"; gen: number; seq: number; job: JobRecord }
  | { type: "error"; gen: number; seq: number; message: string };

/** The first message to a writer thread: its database and its port. */
export type WriterInit = { type: "init"; dbPath: string; port: MessagePort };
