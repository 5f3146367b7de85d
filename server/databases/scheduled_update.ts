// DATABASE_UPDATES=weekly: update-databases from the server itself, on a
// thread of its own (update_worker.ts), then the new data taken up: by this
// server (data_watch.ts), or scaled out by every process (release.ts), where
// only one process a week runs the update. Off by default.
import type { Config } from "../config.ts";
import { logError } from "../log.ts";
import { updateOnThread } from "./update_thread.ts";

/** How a mode takes up an update this process ran. */
export interface DataFollow {
  /** Whether this process runs the scheduled update now. */
  claimSchedule(): Promise<boolean>;
  /** Takes up what the update switched DATA_DIR to (everywhere, scaled out). */
  updated(): Promise<void>;
}

/** Mondays at 04:30 UTC. */
export const UPDATE_SCHEDULE = "30 4 * * 1";

/** Deno.cron's shape, for a test to see what is registered. */
export type CronRegister = (
  name: string,
  schedule: string,
  handler: () => Promise<void>,
) => unknown;

/** One scheduled run: the update, unless another process has it, then its data taken up. */
export async function scheduledUpdate(
  config: Config,
  follow: DataFollow,
): Promise<void> {
  if (!await follow.claimSchedule()) return;
  const outcome = await updateOnThread(config);
  if (outcome.ok) console.log(`data update: ${outcome.message}`);
  else logError(`data update refused: ${outcome.message}`);
  await follow.updated();
}

/** Registers the weekly update when DATABASE_UPDATES is weekly. */
export function scheduleDataUpdates(
  config: Config,
  follow: DataFollow,
  register: CronRegister = Deno.cron,
): void {
  if (config.databaseUpdates !== "weekly") return;
  register(
    "update databases",
    UPDATE_SCHEDULE,
    () => scheduledUpdate(config, follow),
  );
}
