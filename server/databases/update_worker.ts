// Web Worker entry of a scheduled update (DATABASE_UPDATES=weekly): the
// checks read a whole new copy of the data, on a thread whose memory goes
// back to the system when it ends, not into the server's heap.
/// <reference lib="deno.worker" />
import { updateDatabases, type UpdateOptions } from "./update.ts";

self.onmessage = async (event: MessageEvent<Omit<UpdateOptions, "log">>) => {
  try {
    self.postMessage(await updateDatabases(event.data));
  } catch (error) {
    self.postMessage({
      at: new Date().toISOString(),
      ok: false,
      message: `the update stopped: ${(error as Error).message}`,
    });
  }
};
