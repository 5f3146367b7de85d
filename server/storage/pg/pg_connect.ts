// Every PostgreSQL connection of the service goes through pgClient():
// postgres.js on Deno's node:net leaves Nagle's algorithm on, and COPY sends
// its data and its CopyDone as two small writes, so the second waited for
// the server's delayed ACK on every COPY. Hosts are tried in order, as
// postgres.js does itself; a Unix socket path needs no such option.
import net from "node:net";
import postgres from "postgres";
import { isConnectionLost } from "./connection_lost.ts";

interface SocketTarget {
  host: string[];
  port: number[];
  path?: string | false;
}

function connectOnce(
  options: net.NetConnectOpts,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options);
    socket.once("connect", () => {
      socket.off("error", reject);
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Connects to the first of `target`'s hosts that answers, Nagle off. */
export async function connectNoDelay(
  target: SocketTarget,
): Promise<net.Socket> {
  if (target.path) return await connectOnce({ path: target.path });
  let failure: unknown = null;
  for (let i = 0; i < target.host.length; i++) {
    const port = target.port[i] ?? target.port[0];
    try {
      return await connectOnce({ host: target.host[i], port });
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

type Options = postgres.Options<Record<string, postgres.PostgresType>>;

/**
 * postgres.js for `url`, every connection's socket from connectNoDelay
 * (postgres.js's `socket` option, documented in its README but missing from
 * its types).
 */
export function pgClient(url: string, options: Options = {}): postgres.Sql {
  return postgres(url, { ...options, socket: connectNoDelay } as Options);
}

/**
 * sql.begin(fn), except that when fn fails because the connection was lost,
 * no ROLLBACK is sent: postgres.js 3.4.9 writes it to the closed connection
 * from a timer, where its null socket throws an uncaught TypeError that ends
 * the process (porsager/postgres#1208, #1154), or leaves the connection
 * unable to reconnect. The transaction then rejects with the connection's
 * CONNECTION_CLOSED, which sql.begin raises when the connection closes; the
 * server has rolled it back itself. fn awaits nothing but its statements: one
 * sent after the connection closed would meet the same null socket.
 */
export function transaction<T>(
  sql: postgres.Sql,
  fn: (tx: postgres.TransactionSql) => Promise<T>,
): Promise<T> {
  return sql.begin((tx) =>
    fn(tx).catch((error) => {
      if (isConnectionLost(error)) return new Promise<never>(() => {});
      throw error;
    })
  ) as Promise<T>;
}
