// How the last update-databases run (scaled out: the last taking up of the
// deployment's data) ended, kept in DATA_DIR/databases/status.json for the
// operator (GET /api/config, the start log). Written by a rename, so a
// reader never sees half of it.
import { join } from "node:path";
import type { DataUpdateOutcome } from "../../shared/wire.ts";
import { databasesDir } from "./installed.ts";

const statusFile = (dataDir: string) =>
  join(databasesDir(dataDir), "status.json");

export async function readUpdateStatus(
  dataDir: string,
): Promise<DataUpdateOutcome | null> {
  try {
    return JSON.parse(await Deno.readTextFile(statusFile(dataDir)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/** Records an outcome; a disk too full to take it is not a second failure. */
export async function writeUpdateStatus(
  dataDir: string,
  outcome: DataUpdateOutcome,
): Promise<void> {
  const path = statusFile(dataDir);
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(databasesDir(dataDir), { recursive: true });
    await Deno.writeTextFile(temporary, JSON.stringify(outcome));
    await Deno.rename(temporary, path);
  } catch {
    await Deno.remove(temporary).catch(() => {});
  }
}
