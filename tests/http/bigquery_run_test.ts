// A BigQuery query over a 100,000-row table against a server with the default
// settings, as the API page and docs/API.md tell a user to set it up: calls
// of max_batching_rows = BATCH_MAX_IPS rows shaped as BigQuery sends them
// (tests/fixtures/bigquery_request.json), several in flight at once, each
// retried as BigQuery retries a 429. Every row must get its reply within a
// retry budget smaller than BigQuery's.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import { serverTest } from "../helpers/server.ts";

const ROWS = 100_000;
/** Calls BigQuery keeps in flight (it sends a query's batches in parallel). */
const IN_FLIGHT = 10;
/** Attempts per call, and the seconds of waits per call, allowed here. */
const MAX_ATTEMPTS = 5;
const MAX_WAIT_SECONDS = 60;
/** Answers BigQuery retries on its own. */
const RETRIED = new Set([408, 429, 500, 503, 504]);

const FIXTURE = JSON.parse(
  await Deno.readTextFile(
    new URL("../fixtures/bigquery_request.json", import.meta.url),
  ),
);

/** A table's column of addresses: public ones, and now and then a NULL. */
function tableRow(i: number): string | null {
  if (i % 997 === 0) return null;
  const first = [8, 23, 31, 45, 52, 62, 81, 91, 104, 151][i % 10];
  return `${first}.${(i >> 10) & 0xff}.${(i >> 2) & 0xff}.${1 + (i & 0x7f)}`;
}

interface Reply {
  success: boolean;
  country?: unknown;
  company?: unknown;
  asn?: unknown;
}

serverTest(
  "a 100,000-row BigQuery query at the documented batching fits the " +
    "default limits",
  {},
  async (server) => {
    const rows = Array.from({ length: ROWS }, (_, i) => tableRow(i));
    const batches: (string | null)[][] = [];
    for (let at = 0; at < ROWS; at += BATCH_MAX_IPS) {
      batches.push(rows.slice(at, at + BATCH_MAX_IPS));
    }
    const replies: (Reply | null)[][] = [];
    let refused = 0;

    const send = async (index: number) => {
      const body = JSON.stringify({
        ...FIXTURE,
        requestId: `${FIXTURE.requestId}-${index}`,
        calls: batches[index].map((ip) => [ip]),
      });
      let waited = 0;
      for (let attempt = 1;; attempt++) {
        const response = await fetch(`${server.url}/api/bigquery`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        const answer = await response.json();
        if (response.ok) {
          replies[index] = answer.replies;
          return;
        }
        ok(
          RETRIED.has(response.status),
          `call ${index}: ${response.status} ${JSON.stringify(answer)}`,
        );
        refused++;
        const wait = Number(response.headers.get("retry-after") ?? 1);
        waited += wait;
        ok(
          attempt < MAX_ATTEMPTS && waited <= MAX_WAIT_SECONDS,
          `call ${index} still refused after ${attempt} attempts, ` +
            `${waited} s of waits asked in all: ${answer.errorMessage}`,
        );
        await new Promise((done) => setTimeout(done, wait * 1000));
      }
    };

    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < batches.length) await send(next++);
      }),
    );

    const all = replies.flat();
    assertEquals(all.length, ROWS);
    for (const [i, ip] of rows.entries()) {
      if (ip === null) {
        assertEquals(all[i], null, `row ${i}`);
      } else {
        // The fixture's user_defined_context selects these fields.
        ok(all[i] && "country" in all[i]! && "asn" in all[i]!, `row ${i}`);
      }
    }
    ok(
      all.filter((reply) => reply?.success).length > ROWS / 2,
      "most public addresses have data",
    );
    console.log(
      `${batches.length} calls, ${refused} answered 429 and retried`,
    );
  },
);
