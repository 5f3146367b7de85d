// Waiting on a state across processes: polls until `check` holds.

/** Polls `check` until it holds; after `ms`, throws naming `what`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
