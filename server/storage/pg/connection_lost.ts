// Whether a PostgreSQL error means the connection went away, or a lock was
// not had, apart from the client (pg_connect.ts), so that code that only
// names failures (a job thread of the embedded mode) does not load the
// driver.

const LOST_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  // The server ended a session left idle inside a transaction (pg_store.ts).
  "25P03",
]);

/**
 * Whether `error` says the database connection was lost (the server
 * restarting or unreachable) rather than that the statement was wrong: what
 * failed may succeed once it is tried again. SQLSTATE class 08 is
 * "connection exception", 57P0x an operator or crash shutdown, or a server
 * still starting.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" &&
    (LOST_CODES.has(code) || code.startsWith("08") || code.startsWith("57P0"));
}

/**
 * Whether `error` says a lock was not had within lock_timeout (SQLSTATE
 * 55P03): another session holds it and does not let go.
 */
export function isLockNotAvailable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "55P03";
}
