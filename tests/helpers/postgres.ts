// A throwaway PostgreSQL for tests, from Debian's `postgresql` package:
// initdb into a temp directory as the `postgres` user (initdb refuses root),
// pg_ctl on a free loopback port with its socket inside that directory, one
// database created. stop() shuts it down and removes the directory.

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/DB */
  url: string;
  port: number;
  database: string;
  /** Creates another empty database on the same server; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is cut, the data kept. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const PG_ROOT = "/usr/lib/postgresql";

/** The newest installed server's bin directory (15 or newer). */
function pgBin(): string {
  let versions: number[] = [];
  try {
    versions = [...Deno.readDirSync(PG_ROOT)]
      .map((entry) => Number(entry.name))
      .filter((version) => version >= 15);
  } catch { /* not installed */ }
  if (versions.length === 0) {
    throw new Error("PostgreSQL 15+ is not installed: run tests/setup.sh");
  }
  return `${PG_ROOT}/${Math.max(...versions)}/bin`;
}

function freeTcpPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function asPostgres(args: string[]): Deno.Command {
  return Deno.uid() === 0
    ? new Deno.Command("runuser", { args: ["-u", "postgres", "--", ...args] })
    : new Deno.Command(args[0], { args: args.slice(1) });
}

/** Runs a PostgreSQL tool as the postgres user (or as is, if not root). */
async function runAsPostgres(args: string[]): Promise<void> {
  const { code, stdout, stderr } = await asPostgres(args).output();
  if (code !== 0) {
    const text = new TextDecoder();
    throw new Error(
      `${args[0]} failed (${code}): ${text.decode(stderr)}${
        text.decode(stdout)
      }`,
    );
  }
}

async function chownToPostgres(path: string): Promise<void> {
  if (Deno.uid() !== 0) return;
  const { code } = await new Deno.Command("chown", {
    args: ["-R", "postgres:postgres", path],
  }).output();
  if (code !== 0) throw new Error(`chown postgres ${path} failed`);
}

export async function startPostgres(
  database = "test",
): Promise<TestPostgres> {
  const bin = pgBin();
  const dir = await Deno.makeTempDir({ prefix: "pg-test-" });
  const dataDir = `${dir}/data`;
  const socketDir = `${dir}/sock`;
  await Deno.mkdir(socketDir);
  await chownToPostgres(dir);
  try {
    await runAsPostgres([
      `${bin}/initdb`,
      "--pgdata",
      dataDir,
      "--username=postgres",
      "--auth=trust",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const port = freeTcpPort();
    // Durability is irrelevant for a test database: fsync off for speed.
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${socketDir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=100",
    ].join(" ");
    // `start`, or `restart` with its --mode.
    const pgCtl = (...action: string[]) =>
      runAsPostgres([
        `${bin}/pg_ctl`,
        "--pgdata",
        dataDir,
        "--log",
        `${dir}/server.log`,
        "--options",
        options,
        "--wait",
        ...action,
      ]);
    await pgCtl("start");
    const urlFor = (name: string) =>
      `postgres://postgres@127.0.0.1:${port}/${name}`;
    const createDatabase = async (name: string) => {
      await runAsPostgres([
        `${bin}/createdb`,
        "-h",
        socketDir,
        "-p",
        String(port),
        "-U",
        "postgres",
        name,
      ]);
      return urlFor(name);
    };
    await createDatabase(database);
    const stopArgs = [
      `${bin}/pg_ctl`,
      "--pgdata",
      dataDir,
      "--mode=immediate",
      "--wait",
      "stop",
    ];
    let stopped = false;
    // A test run cut short (a --filter that skips stop(), a failed assertion
    // before it) must not leave a server running: stop it as the process ends.
    const stopAtExit = () => {
      if (stopped) return;
      stopped = true;
      asPostgres(stopArgs).outputSync();
      Deno.removeSync(dir, { recursive: true });
    };
    globalThis.addEventListener("unload", stopAtExit);
    return {
      url: urlFor(database),
      port,
      database,
      createDatabase,
      async restart() {
        await pgCtl("--mode=fast", "restart");
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        globalThis.removeEventListener("unload", stopAtExit);
        try {
          await runAsPostgres(stopArgs);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    };
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
}
