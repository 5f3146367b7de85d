// Settings for running on PostgreSQL across several processes. Without
// DATABASE_URL the service runs on SQLite, Deno KV and the data directory
// exactly as before, and ROLE must stay "all".

export type Role = "all" | "api" | "worker";

export interface ScaleConfig {
  /** postgres://... or null for the embedded SQLite default. */
  databaseUrl: string | null;
  /** all: HTTP and jobs; api: HTTP and WebSocket only; worker: jobs only. */
  role: Role;
}

export function scaleConfigFromEnv(
  env: Record<string, string | undefined>,
): ScaleConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const role = (env.ROLE?.trim() || "all") as Role;
  if (!["all", "api", "worker"].includes(role)) {
    throw new Error(`ROLE must be all, api or worker (not "${env.ROLE}")`);
  }
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      "DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)",
    );
  }
  if (databaseUrl === null && role !== "all") {
    throw new Error(
      `ROLE=${role} needs DATABASE_URL: with SQLite one process does everything`,
    );
  }
  return { databaseUrl, role };
}
