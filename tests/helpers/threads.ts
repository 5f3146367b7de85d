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

/** How many of a server's threads run jobs (job workers, result writers). */
export function jobThreads(pid: number): number {
  return [...threadNiceValues(pid).values()]
    .filter((nice) => nice === JOB_THREAD_NICE).length;
}
