import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import { join } from "node:path";
import { resolveSessionSecret, SECRET_FILE } from "./session_secret.ts";

Deno.test("without SESSION_SECRET one is generated once, 0600, and reused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const dataDir = join(dir, "data"); // does not exist yet
    const secret = await resolveSessionSecret(undefined, dataDir);
    ok(secret.length >= 32);
    const path = join(dataDir, SECRET_FILE);
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals(await resolveSessionSecret(undefined, dataDir), secret);
    // Nothing else left behind (no temporary files).
    const names = [];
    for await (const entry of Deno.readDir(dataDir)) names.push(entry.name);
    assertEquals(names, [SECRET_FILE]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replicas starting at once on one data directory agree on the secret", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const secrets = await Promise.all(
      Array.from({ length: 8 }, () => resolveSessionSecret(undefined, dir)),
    );
    assertEquals(new Set(secrets).size, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SESSION_SECRET wins and writes nothing; a bad file is an error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const configured = "c".repeat(40);
    assertEquals(await resolveSessionSecret(configured, dir), configured);
    await rejects(Deno.stat(join(dir, SECRET_FILE)), Deno.errors.NotFound);
    await Deno.writeTextFile(join(dir, SECRET_FILE), "short\n");
    await rejects(
      resolveSessionSecret(undefined, dir),
      /shorter than 32 characters; delete the file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
