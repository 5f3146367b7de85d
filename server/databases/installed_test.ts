import { throws as assertThrows } from "node:assert/strict";
import { readCurrent } from "./installed.ts";

Deno.test("a damaged current.json is named, with what to do", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dataDir}/databases`);
    await Deno.writeTextFile(`${dataDir}/databases/current.json`, "{nope");
    assertThrows(
      () => readCurrent(dataDir),
      /current\.json is not what update-databases writes: remove it/,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
