// Seeded fuzzing of uploads: files from spreadsheets, log exports and
// strangers. Each case either gets a clear 4xx message, or becomes a job whose
// counts add up with every row in the download or counted as filtered. The
// server keeps answering throughout.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { Job } from "../../shared/wire.ts";
import {
  downloadRecords,
  getJson,
  startJob,
  upload,
  waitForJob,
} from "../helpers/client.ts";
import { startServer } from "../helpers/server.ts";

const CASES = Number(Deno.env.get("FUZZ_CASES") ?? 2000);
const TIME_BUDGET_MS = Number(Deno.env.get("FUZZ_SECONDS") ?? 120) * 1000;

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const IPS = [
  "8.8.8.8",
  "1.1.1.1",
  "23.24.0.1",
  "81.2.69.142",
  "2001:4860:4860::8888",
  "[2001:db8::1]:443",
  "10.0.0.1",
  "127.0.0.1",
  "999.1.1.1",
  "",
  " 8.8.4.4 ",
  "1.2.3.4:80",
  "::ffff:1.1.1.1",
  "fe80::1%eth0",
  "not-an-ip",
  "=1+1",
  "<script>alert(1)</script>",
];

type Case = {
  name: string;
  bytes: Uint8Array;
  column?: string;
  /** The message a refused case must get (400). */
  refused?: RegExp;
};

function makeCase(random: () => number, i: number): Case {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const enc = new TextEncoder();
  const rows = (n: number, sep = ",", eol = "\n") => {
    const lines = [["ip", "name", "note"].join(sep)];
    for (let r = 0; r < n; r++) {
      lines.push(
        [pick(IPS), `n${r}`, random() < 0.2 ? `"q${sep} ""x"""` : `v${r}`].join(
          sep,
        ),
      );
    }
    return lines.join(eol) + eol;
  };
  switch (i % 16) {
    case 0: { // random bytes named .csv
      const bytes = new Uint8Array(1 + Math.floor(random() * 2000));
      for (let k = 0; k < bytes.length; k++) {
        bytes[k] = Math.floor(random() * 256);
      }
      return { name: "random.csv", bytes };
    }
    case 1: // unbalanced quotes
      return {
        name: "quotes.csv",
        bytes: enc.encode(`ip,note\n8.8.8.8,"open\n1.1.1.1,x\n`),
      };
    case 2: // CR line ends
      return { name: "cr.csv", bytes: enc.encode(rows(20, ",", "\r")) };
    case 3: // CRLF
      return { name: "crlf.csv", bytes: enc.encode(rows(20, ",", "\r\n")) };
    case 4: // BOM
      return { name: "bom.csv", bytes: enc.encode("\uFEFF" + rows(10)) };
    case 5: { // UTF-16LE with BOM
      const text = rows(10);
      const bytes = new Uint8Array(2 + text.length * 2);
      bytes.set([0xff, 0xfe]);
      for (let k = 0; k < text.length; k++) {
        bytes[2 + 2 * k] = text.charCodeAt(k) & 255;
        bytes[3 + 2 * k] = text.charCodeAt(k) >> 8;
      }
      return { name: "utf16.csv", bytes };
    }
    case 6: { // invalid UTF-8
      const head = enc.encode("ip,name\n8.8.8.8,");
      return {
        name: "bad-utf8.csv",
        bytes: new Uint8Array([...head, 0xc3, 0x28, 0xff, 10]),
      };
    }
    case 7: // duplicate and empty header names
      return {
        name: "dupes.csv",
        bytes: enc.encode("ip,ip,,name,\n8.8.8.8,1.1.1.1,a,b,c\n"),
        column: "ip",
      };
    case 8: // ragged rows
      return {
        name: "ragged.csv",
        bytes: enc.encode("ip,a,b\n8.8.8.8\n1.1.1.1,1,2,3,4,5\n,\n"),
      };
    case 9: // semicolons
      return { name: "semi.csv", bytes: enc.encode(rows(15, ";")) };
    case 10: // tabs
      return { name: "tabs.csv", bytes: enc.encode(rows(15, "\t")) };
    case 11: // header only
      return { name: "header.csv", bytes: enc.encode("ip,name\n") };
    case 12: // empty
      return { name: "empty.csv", bytes: new Uint8Array() };
    case 13: // many columns (10,000 on some cases, fewer on most to bound time)
    {
      const width = i % 160 === 13 ? 10_000 : 300;
      const header = [
        "ip",
        ...Array.from({ length: width - 1 }, (_, k) => `c${k}`),
      ];
      const row = [
        "8.8.8.8",
        ...Array.from({ length: width - 1 }, (_, k) => `${k}`),
      ];
      return {
        name: "wide.csv",
        bytes: enc.encode(`${header}\n${row}\n${row}\n`),
      };
    }
    case 14: // a large single field (5 MB, over MAX_ROW_BYTES, on some)
    {
      const large = i % 160 === 14;
      const size = large ? 5 * 1024 * 1024 : 20_000;
      return {
        name: "field.csv",
        bytes: enc.encode(`ip,blob\n8.8.8.8,"${"x".repeat(size)}"\n`),
        refused: large ? /^The row that starts on line 2 is longer/ : undefined,
      };
    }
    default: // ordinary mixed rows
      return {
        name: "mixed.csv",
        bytes: enc.encode(rows(1 + Math.floor(random() * 40))),
      };
  }
}

const server = await startServer({
  env: {
    DNS_SERVERS: "127.0.0.1:9",
    DNS_TIMEOUT_MS: "50",
    JOB_CONCURRENCY: "2",
  },
});

Deno.test({
  name: `fuzzed uploads (${CASES} seeded cases)`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const random = rng(20261122);
    const started = Date.now();
    const outcomes: Record<string, number> = {};
    const jobs: { id: number; name: string; bytes: Uint8Array }[] = [];
    let done = 0;
    for (let i = 0; i < CASES && Date.now() - started < TIME_BUDGET_MS; i++) {
      const c = makeCase(random, i);
      const response = await upload(server, c.name, c.bytes);
      const body = await response.json();
      if (c.refused) {
        assertEquals(response.status, 400, c.name);
        match(body.message, c.refused);
      }
      if (response.status >= 400) {
        ok(
          response.status < 500,
          `${c.name}: ${response.status} ${JSON.stringify(body)}`,
        );
        ok(typeof body.message === "string" && body.message.length > 0, c.name);
        outcomes[`${response.status} ${body.message}`] =
          (outcomes[`${response.status} ${body.message}`] ?? 0) + 1;
        done++;
        continue;
      }
      assertEquals(response.status, 201, c.name);
      const column = c.column ?? body.headers[0];
      const job = await startJob(server, body, column, { includeCompany: 1 });
      jobs.push({ id: job.id, name: c.name, bytes: c.bytes });
      outcomes["job"] = (outcomes["job"] ?? 0) + 1;
      done++;
      // Check jobs in small groups so a few run at once.
      if (jobs.length >= 8) await checkJobs(jobs.splice(0));
    }
    await checkJobs(jobs.splice(0));
    ok(done >= Math.min(CASES, 200), `only ${done} cases ran`);
    console.log(`${done} cases in ${Date.now() - started} ms`, outcomes);
    const health = await getJson(server, "/api/jobs");
    assertEquals(health.status, 200);
  },
});

async function checkJobs(
  jobs: { id: number; name: string; bytes: Uint8Array }[],
) {
  for (const { id, name, bytes } of jobs) {
    const job: Job = await waitForJob(server, id, undefined, 60_000, 20);
    assertEquals(job.status, "completed", `${name}: ${job.error}`);
    assertEquals(job.successfulIPs + job.failedIPs, job.processedIPs, name);
    assertEquals(job.processedIPs, job.totalIPs, name);
    // Read as the server reads the upload: in the dialect it found there.
    const rows = await downloadRecords(server, id, bytes);
    assertEquals(rows.length - 1, job.processedIPs - job.filteredIPs, name);
  }
}

addEventListener("unload", () => server.stop());
