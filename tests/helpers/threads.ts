// The threads of a running process, read from Linux's /proc (proc(5)).
import { JOB_THREAD_NICE } from "../../server/jobs/background_priority.ts";

/** Each thread of a process by id, with its nice value (stat field 19). */
export function threadNiceValues(pid: number): Map<number, number> {
  const nice = new Map<number, number>();
  for (const { name } of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${name}/stat`);
      // Fields after the command's closing parenthesis start at field 3.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      nice.set(Number(name), Number(fields[19 - 3]));
    } catch (error) {
      // A thread that ended while the list was read.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return nice;
}

/**
 * How many of a server's Web Worker threads (Deno names them `worker-N`) run
 * at the job priority: the job threads. Threads of the runtime's
 * blocking pool are left out: one started from a job thread inherits its nice
 * value, and whether the pool needs a new one depends on the machine's load.
 */
export function jobThreads(pid: number): number {
  let count = 0;
  for (const [tid, nice] of threadNiceValues(pid)) {
    if (nice !== JOB_THREAD_NICE) continue;
    try {
      const name = Deno.readTextFileSync(`/proc/${pid}/task/${tid}/comm`);
      if (/^worker-\d+$/.test(name.trim())) count++;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return count;
}
