// What an operator reads of a job in the server's log: one line when it
// starts and one when it ends (rows, seconds, outcome), in both modes. The
// lines name the job by number and never carry its file's name, addresses
// or cells; why a job failed is logged, at error level, where it fails.
import type { JobRecord } from "../storage/job_rows.ts";
import { logInfo } from "../log.ts";

/** The options a job runs with, as their names. */
function optionNames({ options }: JobRecord): string {
  const names = Object.entries(options)
    .filter(([, on]) => on === true)
    .map(([name]) => name);
  return names.length > 0 ? names.join(", ") : "no options";
}

/**
 * "job 7 started: 10000 rows (geolocation, company, network)"; `resumed`:
 * a job the server found processing when it started goes on.
 */
export function logJobStarted(job: JobRecord, resumed = false): void {
  logInfo(
    `job ${job.id} ${resumed ? "resumed" : "started"}: ${job.totalIPs} rows ` +
      `(${optionNames(job)})`,
  );
}

/**
 * "job 7 completed: 10000 of 10000 rows in 4.2 s (9950 successful, 50
 * failed, 4300 filtered)": the rows the job keeps, and the seconds from
 * its creation to its end, as its Duration shows them.
 */
export function logJobEnded(job: JobRecord): void {
  const end = job.completedAt ? Date.parse(job.completedAt) : Date.now();
  const seconds = Math.max(0, (end - Date.parse(job.createdAt)) / 1000);
  logInfo(
    `job ${job.id} ${job.status}: ${job.processedIPs} of ${job.totalIPs} ` +
      `rows in ${seconds.toFixed(1)} s (${job.successfulIPs} successful, ` +
      `${job.failedIPs} failed, ${job.filteredIPs} filtered)`,
  );
}
