// The optional PeeringDB copy: `deno task fetch:peeringdb URL` against a
// loopback server speaking PeeringDB's /api/net format writes DATA_DIR's
// copy, and a server started on that directory weighs the network's type in
// its confidence; without the copy the answer is the bundled data's alone.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { LookupResponse } from "../../shared/wire.ts";
import { PEERINGDB_FILE } from "../../server/classification/peeringdb.ts";
import { getJson } from "../helpers/client.ts";
import { startServer } from "../helpers/server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
// AS204923 WISPI SRL: kept for want of access evidence,
// confidence 0.45 with the shipped model, near the model's line (a refit
// may move it).
const NEAR_LINE = "5.61.0.1";

/** A loopback stand-in for PeeringDB's /api/net. */
function peeringDb(body: string, status = 200) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/api/net"
        ? new Response(body, {
          status,
          headers: { "content-type": "application/json" },
        })
        : new Response("not found", { status: 404 }),
  );
}

async function fetchCommand(url: string, dataDir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "fetch:peeringdb", url],
    cwd: ROOT,
    env: { DATA_DIR: dataDir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

async function lookUp(dataDir?: string) {
  const server = await startServer(dataDir ? { dataDir } : {});
  try {
    const answer = await getJson<LookupResponse>(
      server,
      `/api/lookup?ip=${NEAR_LINE}`,
    );
    if (!answer.body.success) throw new Error("lookup failed");
    return answer.body;
  } finally {
    await server.stop();
  }
}

Deno.test({
  name: "a PeeringDB copy is fetched and weighed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "ipenrich-peeringdb-" });
    const body = JSON.stringify({
      data: [
        { id: 1, asn: 204923, name: "WISPI", info_type: "Cable/DSL/ISP" },
        { id: 2, asn: 64500, name: "Quiet", info_type: "Not Disclosed" },
        { id: 3, asn: 64501, name: "New", info_type: "", info_types: ["NSP"] },
      ],
      meta: {},
    });
    const server = peeringDb(body);
    const url = `http://127.0.0.1:${server.addr.port}/api/net`;
    try {
      const run = await fetchCommand(url, dir);
      assertEquals(run.code, 0, run.stderr);
      ok(run.stdout.startsWith("2 networks' types written to"), run.stdout);
      const copy = JSON.parse(
        await Deno.readTextFile(`${dir}/${PEERINGDB_FILE}`),
      );
      assertEquals(copy.types, { 204923: "Cable/DSL/ISP", 64501: "NSP" });
      assertEquals(copy.source, url);

      const without = await lookUp();
      const withCopy = await lookUp(dir);
      // Kept for want of access evidence, and doubted; PeeringDB's "ISP"
      // tips the model, which filters it and says why.
      assertEquals([without.network_type, without.ispFiltered], [
        "business",
        false,
      ]);
      assertEquals([withCopy.network_type, withCopy.ispFiltered], [
        "consumer_isp",
        true,
      ]);
      ok(
        withCopy.classification_reason?.includes(
          'PeeringDB type "Cable/DSL/ISP"',
        ),
        withCopy.classification_reason ?? "",
      );
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({
  name: "a bad PeeringDB answer writes nothing and says why",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "ipenrich-peeringdb-" });
    for (
      const [body, status, says] of [
        ['{"data": [{"asn": "x"}]}', 200, "not a PeeringDB /api/net answer"],
        ["<html>", 200, "did not answer JSON"],
        ["{}", 503, "answered 503"],
      ] as const
    ) {
      const server = peeringDb(body, status);
      try {
        const run = await fetchCommand(
          `http://127.0.0.1:${server.addr.port}/api/net`,
          dir,
        );
        assertEquals(run.code, 1);
        ok(run.stderr.includes(says), run.stderr);
        ok(run.stderr.startsWith("PeeringDB copy not written: "), run.stderr);
      } finally {
        await server.shutdown();
      }
    }
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    assertEquals(files.includes(PEERINGDB_FILE), false);
  },
});
