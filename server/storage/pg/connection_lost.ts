// Whether a PostgreSQL error means the connection went away, apart from the
// client (pg_connect.ts), so that code that only names failures (a job
// thread of the embedded mode) does not load the driver.

const LOST_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
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
