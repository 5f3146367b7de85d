// Runs the test files, each in its own `deno test` process, `--jobs` at a
// time, after one type check of them all. A process per file, not `deno test
// --parallel` (one process, a worker per file): a file that never ends
// (seen, cause not found) then stops at `--timeout` minutes, with its
// children, and is run once more; a second timeout is a failure that names
// the file. Every other file's results stand. The stall seen so far comes
// before a file's tests start (deno test prints nothing, not even "running
// N tests"): a file silent for START_SECONDS is stopped then, not at the
// timeout.
//
// deno run -A tests/run_tests.ts [--jobs=N] [--timeout=MIN]
//   [--ignore=PATH,...] [PATH ...]   (default: every test file here)
// Each file's output is printed whole when it ends, closed by deno test's own
// "ok | N passed | N failed" line, which .ci/run adds up.
import { parseArgs } from "node:util";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
// As deno test finds them (deno.json's test.exclude, and its file pattern).
const EXCLUDED = new Set(["web/dist", "node_modules", "data", ".git"]);
const TEST_FILE = /(^|[._])test\.(ts|tsx|mts|js|mjs|jsx)$/;
/** Loading a file's modules takes seconds; silence this long is a stall. */
const START_SECONDS = 120;
/** deno test's closing line, which .ci/run adds up. */
const SUMMARY = /^(ok|FAILED) \| \d+ passed/m;

async function findTests(path: string, ignore: string[]): Promise<string[]> {
  const rel = relative(ROOT, path) || ".";
  if (EXCLUDED.has(rel) || ignore.includes(rel)) return [];
  const info = await Deno.stat(path);
  if (info.isFile) return [rel];
  const found: string[] = [];
  const entries = [];
  for await (const entry of Deno.readDir(path)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : 1);
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory) found.push(...await findTests(child, ignore));
    else if (entry.isFile && TEST_FILE.test(entry.name)) {
      const childRel = relative(ROOT, child);
      if (!ignore.includes(childRel)) found.push(childRel);
    }
  }
  return found;
}

interface Outcome {
  file: string;
  output: string;
  /** Stopped rather than ended by itself: what it did not do in time. */
  stalled: null | "start" | "end";
  success: boolean;
}

/** The process groups running now, ended with this runner if it is stopped. */
const running = new Set<number>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    for (const pid of running) killGroup(pid);
    Deno.exit(130);
  });
}

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * One `deno test` of `file` in its own process group, stopped when it
 * prints nothing for START_SECONDS or has not ended at `timeoutMs`.
 */
async function runFile(file: string, timeoutMs: number): Promise<Outcome> {
  // setsid: the group holds the servers the test starts, so a timeout ends
  // them too.
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "test", "-A", "--no-check", file],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running.add(child.pid);
  let stalled: Outcome["stalled"] = null;
  const stop = (what: "start" | "end") => () => {
    stalled = what;
    killGroup(child.pid);
  };
  const startTimer = setTimeout(stop("start"), START_SECONDS * 1000);
  const timer = setTimeout(stop("end"), timeoutMs);
  let out = "";
  const readOut = async () => {
    for await (
      const text of child.stdout.pipeThrough(new TextDecoderStream())
    ) {
      out += text;
      clearTimeout(startTimer);
    }
  };
  const [status, , err] = await Promise.all([
    child.status,
    readOut(),
    new Response(child.stderr).text(),
  ]);
  clearTimeout(startTimer);
  clearTimeout(timer);
  running.delete(child.pid);
  return { file, output: out + err, stalled, success: status.success };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      jobs: { type: "string", default: String(availableParallelism()) },
      timeout: { type: "string", default: "10" },
      ignore: { type: "string", default: "" },
    },
  });
  const jobs = Math.max(1, Number(values.jobs));
  const timeoutMs = Number(values.timeout) * 60_000;
  const ignore = values.ignore.split(",").filter(Boolean).map((path) =>
    relative(ROOT, join(ROOT, path))
  );
  const roots = positionals.length > 0 ? positionals : ["."];
  const files: string[] = [];
  for (const root of roots) {
    files.push(...await findTests(join(ROOT, root), ignore));
  }
  if (files.length === 0) {
    console.error("run_tests: no test files found");
    return 1;
  }
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", ...files],
    cwd: ROOT,
    stdin: "null",
  }).spawn().status;
  if (!check.success) {
    console.log("FAILED | 0 passed | 1 failed (type check)");
    return 1;
  }

  const failed: string[] = [];
  const retried: string[] = [];
  const queue = [...files];
  const started = Date.now();
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const late = (outcome: Outcome) =>
        outcome.stalled === "start"
          ? `did not start within ${START_SECONDS} s`
          : `did not end within ${values.timeout} minutes`;
      let outcome = await runFile(file, timeoutMs);
      if (outcome.stalled) {
        console.log(
          `${outcome.output}\nrun_tests: ${file} ${late(outcome)}; ` +
            "it was stopped and runs once more",
        );
        retried.push(file);
        outcome = await runFile(file, timeoutMs);
        if (outcome.stalled) {
          outcome.output += `\nrun_tests: ${file} ${late(outcome)} again\n` +
            "FAILED | 0 passed | 1 failed (timeout)";
        }
      }
      if (!outcome.success && !SUMMARY.test(outcome.output)) {
        outcome.output += "\nFAILED | 0 passed | 1 failed (no summary)";
      }
      console.log(outcome.output);
      if (!outcome.success) failed.push(file);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `run_tests: ${files.length} files in ${seconds} s, ` +
      `${failed.length} failed${
        failed.length ? `: ${failed.join(", ")}` : ""
      }` +
      (retried.length ? `; stopped once: ${retried.join(", ")}` : ""),
  );
  return failed.length === 0 ? 0 : 1;
}

Deno.exit(await main());
