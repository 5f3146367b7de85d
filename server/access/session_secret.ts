// The key that signs session cookies. SESSION_SECRET when set; otherwise one
// generated once into DATA_DIR/session_secret (owner-only permissions) and
// read back on every start, so sessions survive restarts and every replica
// sharing the data directory signs with the same key. No per-replica memory.
import { join } from "node:path";
import { MIN_SECRET_LENGTH } from "./access_config.ts";
import { base64url } from "./signing.ts";

export const SECRET_FILE = "session_secret";

const generated = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function readSecret(path: string): Promise<string> {
  const secret = (await Deno.readTextFile(path)).trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `${path} holds a session secret shorter than ${MIN_SECRET_LENGTH} ` +
        `characters; delete the file to have a new one generated (every ` +
        `visitor then gets a new session) or set SESSION_SECRET`,
    );
  }
  return secret;
}

export async function resolveSessionSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  if (configured !== undefined) return configured;
  const path = join(dataDir, SECRET_FILE);
  try {
    return await readSecret(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const secret = generated();
  try {
    // Written under a temporary name and linked into place: of two replicas
    // starting at once, one links, the other gets AlreadyExists and reads
    // the winner's secret; no reader sees a half-written file.
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(temporary, secret + "\n", { mode: 0o600 });
    await Deno.chmod(temporary, 0o600);
    try {
      await Deno.link(temporary, path);
    } finally {
      await Deno.remove(temporary);
    }
    return secret;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      return await readSecret(path);
    }
    throw error;
  }
}
