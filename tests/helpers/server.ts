// Starts the real server as its own process on a free loopback port with a
// fresh data directory, as a user would run it. Tests talk to it over HTTP.
// TEST_DATABASE=postgres runs the same tests in PostgreSQL mode: a throwaway
// PostgreSQL (one per test file) and a fresh database per data directory, so
// a server restarted on the same directory finds its jobs again.
import { TEST_SESSION_SECRET } from "./cookie_jar.ts";
import { startPostgres, type TestPostgres } from "./postgres.ts";
import { keepFeatures, seedFeatures } from "./feature_cache.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: Deno.ChildProcess;
  /** Lines the server has printed so far (stdout and stderr). */
  output: string[];
  /** Graceful stop (SIGTERM), waits for exit. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would, waits for exit. */
  kill(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a data directory, e.g. to restart after a kill. */
  dataDir?: string;
  /** Remove the data directory on stop (default: only when this call made it). */
  keepDataDir?: boolean;
  /** A process without HTTP (ROLE=worker): ready at its "worker ready" line. */
  worker?: boolean;
}

let postgres: Promise<TestPostgres> | null = null;
// Promises, so servers started at once get databases of their own.
const databaseOfDir = new Map<string, Promise<string>>();

/** Whether this run uses PostgreSQL mode (TEST_DATABASE=postgres). */
export const usingPostgres = Deno.env.get("TEST_DATABASE") === "postgres";

function databaseFor(dataDir: string): Promise<string> {
  let url = databaseOfDir.get(dataDir);
  if (!url) {
    postgres ??= startPostgres("unused");
    const name = `server_${databaseOfDir.size + 1}`;
    url = postgres.then((server) => server.createDatabase(name));
    databaseOfDir.set(dataDir, url);
  }
  return url;
}

/**
 * The server on `dataDir` as the tests run it, `env` over the tests'
 * settings; its output piped.
 */
export function serverCommand(
  dataDir: string,
  env: Record<string, string> = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    cwd: ROOT,
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // Tests never query DNS off this machine: unless a test brings its own
      // server (dnsmasq on loopback), lookups go to a closed loopback port.
      DNS_SERVERS: "127.0.0.1:9",
      DNS_TIMEOUT_MS: "200",
      // One secret for every test server: the helpers' session cookie holds
      // on all of them and across a restart (cookie_jar.ts).
      SESSION_SECRET: TEST_SESSION_SECRET,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  });
}

/** A test (`name`) with a fresh server started with `env`, stopped after. */
export function serverTest(
  name: string,
  env: Record<string, string>,
  body: (server: RunningServer, t: Deno.TestContext) => Promise<void>,
): void {
  Deno.test(
    { name, sanitizeOps: false, sanitizeResources: false },
    async (t) => {
      const server = await startServer({ env });
      try {
        await body(server, t);
      } finally {
        await server.stop();
      }
    },
  );
}

export async function startServer(
  options: StartOptions = {},
): Promise<RunningServer> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ??
    await Deno.makeTempDir({ prefix: "ipenrich-test-" });
  const database: Record<string, string> =
    usingPostgres && options.env?.DATABASE_URL === undefined
      ? { DATABASE_URL: await databaseFor(dataDir) }
      : {};
  await seedFeatures(dataDir);
  const process = serverCommand(dataDir, { ...database, ...options.env })
    .spawn();
  const output: string[] = [];
  let resolvePort: (port: number) => void;
  let rejectPort: (error: Error) => void;
  const portPromise = new Promise<number>((resolve, reject) => {
    resolvePort = resolve;
    rejectPort = reject;
  });
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const lines = stream.pipeThrough(new TextDecoderStream());
    let buffered = "";
    for await (const chunk of lines) {
      buffered += chunk;
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const line of parts) {
        output.push(line);
        const match = line.match(/listening on http:\/\/[^:]+:(\d+)/);
        if (match) resolvePort(Number(match[1]));
        if (options.worker && line.startsWith("worker ready")) resolvePort(0);
      }
    }
  };
  const pumps = Promise.all([pump(process.stdout), pump(process.stderr)]);
  process.status.then((status) => {
    rejectPort(
      new Error(
        `server exited (${status.code}) before listening:\n${
          output.join("\n")
        }`,
      ),
    );
  });
  const timer = setTimeout(
    () => rejectPort(new Error("server did not start within 60 s")),
    60_000,
  );
  let port: number;
  try {
    port = await portPromise;
  } catch (error) {
    // One that never said it listens is not left running.
    try {
      process.kill("SIGKILL");
    } catch { /* already gone */ }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // PostgreSQL mode must not quietly fall back to the SQLite file.
  if (database.DATABASE_URL) {
    const sqlite = await Deno.stat(`${dataDir}/enrichment.db`).catch(() =>
      null
    );
    if (sqlite) throw new Error("TEST_DATABASE=postgres, yet SQLite was used");
  }
  await keepFeatures(dataDir, options.env);
  let exited = false;
  const finish = async (signal: Deno.Signal) => {
    if (!exited) {
      exited = true;
      try {
        process.kill(signal);
      } catch { /* already gone */ }
      await process.status;
      await pumps;
    }
    if (ownDir && !options.keepDataDir) {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process,
    output,
    stop: () => finish("SIGTERM"),
    kill: () => finish("SIGKILL"),
  };
}
