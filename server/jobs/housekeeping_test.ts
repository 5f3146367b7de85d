import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../storage/store.ts";
import { removeStaleUploads, UPLOAD_TTL_MS } from "./housekeeping.ts";

Deno.test("uploads no job used are removed after a day, others stay", async () => {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "test.db"));
  const now = Date.now();
  const old = new Date(now - UPLOAD_TTL_MS - 60_000).toISOString();
  const recent = new Date(now - 60_000).toISOString();
  const names = ["old-unused.csv", "old-used.csv", "new-unused.csv"];
  for (const name of names) {
    await Deno.writeTextFile(join(dir, name), "ip\n1.1.1.1\n");
    store.addUpload({
      fileName: name,
      originalFileName: name,
      size: 11,
      headers: ["ip"],
      rowCount: 1,
      dialect: null,
      createdAt: name.startsWith("old") ? old : recent,
      owner: null,
    });
  }
  store.createJob({
    fileName: "old-used.csv",
    originalFileName: "old-used.csv",
    ipColumnName: "ip",
    ipColumnIndex: 0,
    headers: ["ip"],
    dialect: null,
    totalIPs: 1,
    options: { geolocation: true, domain: false, company: true, network: true },
  });
  assertEquals(await removeStaleUploads(store, dir, now), 1);
  assertEquals(store.getUpload("old-unused.csv"), null);
  assertEquals(store.getUpload("old-used.csv")?.fileName, "old-used.csv");
  assertEquals(store.getUpload("new-unused.csv")?.fileName, "new-unused.csv");
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
    n.endsWith(".csv")
  ).sort();
  assertEquals(left, ["new-unused.csv", "old-used.csv"]);
  store.close();
  await Deno.remove(dir, { recursive: true });
});
