// JobEventBus across processes on PostgreSQL LISTEN/NOTIFY via postgres.js.
// Every replica LISTENs on one channel; a publisher's NOTIFY reaches all of
// them, itself included, so local subscribers see changes the same way as
// remote ones. postgres.js re-issues LISTEN after a lost connection; since
// notifications sent meanwhile are gone, resync listeners are told to re-read.
import type postgres from "postgres";
import { pgClient } from "../storage/pg/pg_connect.ts";
import {
  ChangeThrottle,
  DEFAULT_MIN_INTERVAL_MS,
  deliver,
  encodeChange,
  type JobChange,
  type JobChangeListener,
  type JobEventBus,
} from "./job_event_bus.ts";
import { logError } from "../log.ts";

export const JOB_EVENTS_CHANNEL = "ip_enrich_job_events";

export interface PgJobEventBusOptions {
  databaseUrl: string;
  minIntervalMs?: number;
  channel?: string;
}

export class PgJobEventBus implements JobEventBus {
  #sql: postgres.Sql;
  #channel: string;
  #throttle: ChangeThrottle;
  #listeners = new Set<JobChangeListener>();
  #resyncListeners = new Set<() => void>();
  #listening: Promise<unknown> | null = null;
  #listens = 0;

  constructor(options: PgJobEventBusOptions) {
    // One connection for NOTIFY, one held by LISTEN.
    this.#sql = pgClient(options.databaseUrl, {
      max: 2,
      onnotice: () => {},
      connection: { application_name: "ip-enrich-events" },
    });
    this.#channel = options.channel ?? JOB_EVENTS_CHANNEL;
    this.#throttle = new ChangeThrottle(
      async (jobId, change) => {
        await this.#sql.notify(this.#channel, encodeChange(jobId, change));
      },
      options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS,
    );
  }

  publish(jobId: number, change: JobChange): Promise<void> {
    encodeChange(jobId, change); // reject oversize payloads at the caller
    return this.#throttle.push(jobId, change);
  }

  /** Resolves once LISTEN is in place (after the first subscribe). */
  ready(): Promise<void> {
    return this.#listening?.then(() => {}) ?? Promise.resolve();
  }

  subscribe(listener: JobChangeListener): () => void {
    this.#listeners.add(listener);
    if (!this.#listening) {
      const listening = this.#sql.listen(
        this.#channel,
        (text) => this.#receive(text),
        () => this.#listened(),
      );
      this.#listening = listening;
      // A database that is down now must not crash the process; the next
      // subscribe tries again; a ready() already waiting rejects.
      listening.catch((error) => {
        logError("job events: LISTEN failed:", error);
        if (this.#listening === listening) this.#listening = null;
      });
    }
    return () => this.#listeners.delete(listener);
  }

  /** Called on the first LISTEN and again after every reconnect. */
  #listened(): void {
    if (this.#listens++ === 0) return;
    for (const resync of this.#resyncListeners) {
      try {
        resync();
      } catch (error) {
        logError("job resync listener failed:", error);
      }
    }
  }

  onResync(listener: () => void): () => void {
    this.#resyncListeners.add(listener);
    return () => this.#resyncListeners.delete(listener);
  }

  #receive(text: string): void {
    let message: { jobId: number; change: JobChange };
    try {
      message = JSON.parse(text);
    } catch {
      logError("job change not JSON:", text.slice(0, 200));
      return;
    }
    deliver(this.#listeners, message.jobId, message.change);
  }

  async close(): Promise<void> {
    await this.#throttle.flush();
    await this.#sql.end({ timeout: 2 });
  }
}
