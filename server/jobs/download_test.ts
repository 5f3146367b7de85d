// The CSV download over both stores when whole pages of rows are left out
// (consumer ISPs): the stream must go on past them to the kept rows.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { emptyEnrichment } from "../enrichment/types.ts";
import { Store } from "../storage/store.ts";
import { csvDownload } from "./download.ts";

Deno.test("a download skips pages whose rows were all left out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "download-" });
  const store = new Store(join(dir, "test.db"));
  try {
    const job = store.createJob({
      fileName: "f.csv",
      originalFileName: "f.csv",
      ipColumnName: "ip",
      ipColumnIndex: 0,
      headers: ["ip"],
      delimiter: ",",
      totalIPs: 5000,
      options: {
        geolocation: false,
        domain: false,
        company: false,
        network: false,
      },
    });
    store.setStatus(job.id, "processing", ["pending"]);
    // 4,500 filtered rows (more than two download pages), then 500 kept.
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      rowIndex: i,
      original: [`10.0.${i >> 8}.${i & 255}`],
      enrichment: {
        ...emptyEnrichment(`10.0.${i >> 8}.${i & 255}`),
        success: true,
        ispFiltered: i < 4500,
      },
    }));
    for (let from = 0; from < rows.length; from += 100) {
      store.commitBatch(job.id, rows.slice(from, from + 100), {
        processed: from + 100,
        successful: from + 100,
        failed: 0,
        filtered: Math.min(from + 100, 4500),
      });
    }
    const text = await csvDownload(store, store.getJob(job.id)!).text();
    const lines = text.trimEnd().split("\r\n");
    assertEquals(lines.length, 1 + 500);
    // ip_used (always in the download) is empty: the cell was the address.
    assertEquals(lines[1], "10.0.17.148,,true,");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
