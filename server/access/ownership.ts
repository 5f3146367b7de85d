// Who may see what. A job and an upload belong to the session that made
// them (their `owner` column holds the session id). In private mode (the
// default) a session sees only its own; in shared mode everyone sees every
// job, as before sessions existed. Jobs and uploads from before owners were
// recorded have owner null: visible only in shared mode (the README says how
// to claim or remove them).
//
// A job that may not be seen is answered exactly like one that does not
// exist, so job numbers reveal nothing about other visitors' work.
import type { JobsVisibility } from "./access_config.ts";

/** Whether the session `sessionId` may see (and act on) a job. */
export function canSee(
  owner: string | null,
  sessionId: string | undefined,
  visibility: JobsVisibility,
): boolean {
  if (visibility === "shared") return true;
  return owner !== null && sessionId !== undefined && owner === sessionId;
}

/**
 * The owner a job listing (or "clear completed") is restricted to: the
 * session's id in private mode, undefined (everyone's) in shared mode.
 * The store turns it into `WHERE owner = ?`.
 */
export function listingOwner(
  sessionId: string,
  visibility: JobsVisibility,
): string | undefined {
  return visibility === "shared" ? undefined : sessionId;
}

/**
 * Whether a session may start a job from an upload. Upload names are bound
 * to their uploader in both modes: a name is only ever given to the session
 * that uploaded the file, so anyone else presenting it got it some other
 * way. Uploads from before owners were recorded stay usable in shared mode.
 */
export function canUseUpload(
  owner: string | null,
  sessionId: string | undefined,
  visibility: JobsVisibility,
): boolean {
  if (owner === null) return visibility === "shared";
  return sessionId !== undefined && owner === sessionId;
}
