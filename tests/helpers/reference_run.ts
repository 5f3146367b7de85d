// The check of the crash tests: a job that was interrupted ends as the same
// job run without interruption on a reference server does.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { Job } from "../../shared/wire.ts";
import { downloadText, waitForJob } from "./client.ts";
import type { RunningServer } from "./server.ts";

/**
 * Waits for job `id` on `server` and `refId` on `reference`: it completes
 * with all `rows` processed, the reference's counts and a byte-identical
 * download. The job as it ended and its download.
 */
export async function assertLikeReference(
  [server, id]: [RunningServer, number],
  [reference, refId]: [RunningServer, number],
  rows: number,
  timeoutMs: number,
): Promise<{ done: Job; download: string }> {
  const done = await waitForJob(server, id, undefined, timeoutMs);
  const refDone = await waitForJob(reference, refId, undefined, timeoutMs);
  assertEquals(done.status, "completed");
  assertEquals(done.processedIPs, rows);
  assertEquals(done.successfulIPs + done.failedIPs, rows);
  assertEquals(
    [done.successfulIPs, done.failedIPs, done.filteredIPs],
    [refDone.successfulIPs, refDone.failedIPs, refDone.filteredIPs],
  );
  const [download, expected] = await Promise.all([
    downloadText(server, id),
    downloadText(reference, refId),
  ]);
  assertEquals(download.length, expected.length);
  ok(download === expected, "byte-identical to the uninterrupted run");
  return { done, download };
}
