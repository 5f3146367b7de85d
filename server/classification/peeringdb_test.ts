import {
  deepStrictEqual as assertEquals,
  rejects,
  throws,
} from "node:assert/strict";
import {
  loadPeeringDb,
  parseNetAnswer,
  PEERINGDB_FILE,
  peeringDbLogOdds,
} from "./peeringdb.ts";
import { featureVector, MODEL, nameWords, PRIOR, score } from "./model.ts";

Deno.test("a /api/net answer's types; undisclosed ones left out", () => {
  assertEquals(
    parseNetAnswer({
      data: [
        { asn: 1, info_type: "Cable/DSL/ISP", name: "a" },
        { asn: 2, info_type: "Not Disclosed" },
        { asn: 3, info_type: "", info_types: ["Enterprise", "NSP"] },
        { asn: 4, info_type: null },
      ],
      meta: {},
    }),
    { 1: "Cable/DSL/ISP", 3: "Enterprise" },
  );
  throws(
    () => parseNetAnswer({ data: [{ asn: -1 }] }),
    /not a PeeringDB \/api\/net answer: data\.0\.asn/,
  );
  throws(() => parseNetAnswer([]), /not a PeeringDB \/api\/net answer/);
});

Deno.test("a type moves the model's answer; none leaves it", () => {
  assertEquals(peeringDbLogOdds(undefined), 0);
  assertEquals(peeringDbLogOdds("Not Disclosed"), 0);
  const x = featureVector(null, nameWords("Example Networks"), [0, 0]);
  const plain = score(x);
  const access = score(x, MODEL, peeringDbLogOdds("Cable/DSL/ISP"));
  const content = score(x, MODEL, peeringDbLogOdds("Content"));
  assertEquals(score(x, MODEL, 0), plain);
  assertEquals(access.p > plain.p && plain.p > content.p, true);
  // A prior that outweighs every feature is the strongest evidence.
  assertEquals(score(x, MODEL, 50).strongest, PRIOR);
});

Deno.test("no copy: null; a damaged copy is named", async () => {
  const dir = await Deno.makeTempDir();
  assertEquals(await loadPeeringDb(dir), null);
  await Deno.writeTextFile(`${dir}/${PEERINGDB_FILE}`, "{oops");
  await rejects(
    loadPeeringDb(dir),
    new RegExp(`${PEERINGDB_FILE} is not a PeeringDB copy`),
  );
  await Deno.remove(dir, { recursive: true });
});
