import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseError, Store } from "./store.ts";

async function withStore(
  fn: (store: Store, dir: string) => void | Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "test.db"), { check: true });
  try {
    await fn(store, dir);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip"],
  dialect: null,
  totalIPs: 3,
  options: { geolocation: true, domain: false, company: true, network: true },
};

Deno.test("status moves only from the expected states", () =>
  withStore((store) => {
    const job = store.createJob(newJob);
    assertEquals(job.status, "pending");
    assertEquals(store.setStatus(job.id, "completed", ["processing"]), false);
    assertEquals(store.setStatus(job.id, "processing", ["pending"]), true);
    assertEquals(
      store.setStatus(job.id, "cancelled", ["pending", "processing"]),
      true,
    );
    const cancelled = store.getJob(job.id)!;
    assertEquals(cancelled.status, "cancelled");
    assertEquals(typeof cancelled.completedAt, "string");
  }));

Deno.test("a corrupt database file is refused with a clear message", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "bad.db");
  await Deno.writeFile(
    path,
    new TextEncoder().encode("this is not sqlite ".repeat(500)),
  );
  throws(
    () => new Store(path, { check: true }),
    (error: Error) =>
      error instanceof DatabaseError &&
      /cannot open the database/.test(error.message),
  );
  await Deno.remove(dir, { recursive: true });
});
