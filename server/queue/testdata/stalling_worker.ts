// A worker process for the redelivery test: takes one chunk, prints it, and
// never finishes it, so the test can SIGKILL it mid-chunk.
import { PgBossQueue } from "../pg_boss_queue.ts";

const [databaseUrl, schema] = Deno.args;
const queue = await PgBossQueue.open({
  databaseUrl,
  schema,
  heartbeatSeconds: null,
  expireInSeconds: 2,
  monitorIntervalSeconds: 1,
});
await queue.work(async (chunk) => {
  console.log(JSON.stringify(chunk));
  await new Promise(() => {});
});
console.log("ready");
