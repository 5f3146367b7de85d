// The real server as its own process (deno run server/main.ts) on a free
// loopback port with a fresh data directory, as a user would run it. Job
// workers are threads of that process, so its /proc status covers them.
import { MALLOC_ENV, V8_FLAGS_ARG } from "../server/v8_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PROFILE_DIR = Deno.env.get("BENCH_CPU_PROF");

export interface ServerProcess {
  /** Its HTTP base URL ("" for a ROLE=worker process). */
  url: string;
  pid: number;
  dataDir: string;
  output: string[];
  /** Current and peak resident memory of the process, in bytes. */
  memory(): Promise<{ rss: number; peak: number }>;
  /**
   * Starts the peak over from now (Linux: clear_refs 5), so it is what
   * comes next, not the server's start, which on a fresh DATA_DIR builds
   * the AS features (some 550-650 MB for a moment).
   */
  resetPeak(): Promise<void>;
  stop(): Promise<void>;
}

export async function readMemory(
  pid: number,
): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) =>
    Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) *
    1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

export interface StartOptions {
  /** A ROLE=worker process: no HTTP, ready at its "worker ready" line. */
  worker?: boolean;
}

export async function startServer(
  dataDir: string,
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<ServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    // As `deno task start` runs it (V8's heap flags: see README).
    args: [
      "run",
      "-A",
      V8_FLAGS_ARG,
      // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each worker process,
      // written there when it stops (bench/profile_summary.ts reads it).
      ...(options.worker && PROFILE_DIR
        ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]
        : []),
      "server/main.ts",
    ],
    cwd: ROOT,
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...MALLOC_ENV,
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const { promise: listening, resolve, reject } = Promise.withResolvers<
    string
  >();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    let buffered = "";
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      buffered += text;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        output.push(line);
        const match = line.match(/listening on (http:\/\/\S+)/);
        if (match) resolve(match[1]);
        if (options.worker && line.startsWith("worker ready")) resolve("");
      }
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let exited = false;
  child.status.then((status) => {
    exited = true;
    reject(
      new Error(`server exited (${status.code}):\n${output.join("\n")}`),
    );
  });
  const timer = setTimeout(
    () => reject(new Error("server did not start within 120 s")),
    120_000,
  );
  let url: string;
  try {
    url = await listening;
  } catch (error) {
    if (!exited) child.kill("SIGKILL");
    await child.status;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    url: url.replace("0.0.0.0", "127.0.0.1"),
    pid: child.pid,
    dataDir,
    output,
    memory: () => readMemory(child.pid),
    resetPeak: () =>
      Deno.writeTextFile(`/proc/${child.pid}/clear_refs`, "5").catch(() => {}),
    stop: async () => {
      if (!exited) {
        child.kill("SIGTERM");
        const kill = setTimeout(() => {
          if (!exited) child.kill("SIGKILL");
        }, 10_000);
        await child.status;
        clearTimeout(kill);
      }
      await pumps;
    },
  };
}
