import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { canSee, canUseUpload, listingOwner } from "./ownership.ts";

const alice = "aliceaaaaaaaaaaaaaaaaa";
const bob = "bobbbbbbbbbbbbbbbbbbbb";

Deno.test("private: a job is seen only by the session that made it", () => {
  assertEquals(canSee(alice, alice, "private"), true);
  assertEquals(canSee(alice, bob, "private"), false);
  assertEquals(canSee(alice, undefined, "private"), false);
  // Ownerless jobs (from before sessions) are nobody's in private mode.
  assertEquals(canSee(null, alice, "private"), false);
  assertEquals(canSee(null, undefined, "private"), false);
});

Deno.test("shared: every session sees every job, ownerless ones too", () => {
  assertEquals(canSee(alice, bob, "shared"), true);
  assertEquals(canSee(null, bob, "shared"), true);
  assertEquals(canSee(alice, undefined, "shared"), true);
});

Deno.test("listings are restricted to the caller only in private mode", () => {
  assertEquals(listingOwner(alice, "private"), alice);
  assertEquals(listingOwner(alice, "shared"), undefined);
});

Deno.test("an upload name is usable only by its uploader, in both modes", () => {
  for (const mode of ["private", "shared"] as const) {
    assertEquals(canUseUpload(alice, alice, mode), true);
    assertEquals(canUseUpload(alice, bob, mode), false);
    assertEquals(canUseUpload(alice, undefined, mode), false);
  }
  assertEquals(canUseUpload(null, bob, "shared"), true);
  assertEquals(canUseUpload(null, bob, "private"), false);
});
