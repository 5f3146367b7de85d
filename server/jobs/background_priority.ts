// The job threads (embedded mode: each runs and commits chunks) run at a
// lower CPU priority than the HTTP thread: a job keeps both cores of a small
// machine busy, and at equal priority a request waits behind it for a
// scheduler slice. With nothing else to run, a job still gets every core it
// can use.
import { setPriority } from "node:os";

/** The nice value of a job's threads (Linux: -20 highest .. 19 lowest). */
export const JOB_THREAD_NICE = 10;

/**
 * Lowers the calling thread's priority to JOB_THREAD_NICE. Where that is not
 * possible (no /proc/thread-self, or not permitted) the thread runs on as
 * it was. On Linux setpriority(2) given a thread id moves that thread
 * alone, so this is called from the thread to lower.
 */
export function lowerThisThread(): void {
  try {
    const self = Deno.readLinkSync("/proc/thread-self");
    const tid = Number(self.slice(self.lastIndexOf("/") + 1));
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, JOB_THREAD_NICE);
  } catch {
    // Not Linux, or not permitted: a normal priority.
  }
}
