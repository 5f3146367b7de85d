// A worker process for the redelivery test: takes one chunk, prints it, and
// never finishes it, so the test can SIGKILL it mid-chunk.
import { PgBossQueue } from "../pg_boss_queue.ts";

// "expiry": lost chunks come back after expireInSeconds; "heartbeat": after
// the heartbeat lapses (the default way, with a long expiry).
const [databaseUrl, schema, mode] = Deno.args;
const queue = await PgBossQueue.open({
  databaseUrl,
  schema,
  heartbeatSeconds: mode === "heartbeat" ? 10 : null,
  expireInSeconds: mode === "heartbeat" ? 3600 : 2,
  monitorIntervalSeconds: 1,
});
await queue.work(async (chunk) => {
  console.log(JSON.stringify(chunk));
  await new Promise(() => {});
});
console.log("ready");
