// A small tmpfs for tests of a full disk: mounted in a temp directory,
// filled to a few MB short of full, unmounted when the test process ends.
// Needs root for mount(8): `mounted.ok` is false (and `error` says why)
// where mounting is refused, and such tests are skipped, saying so.
import { join } from "node:path";

async function run(command: string, ...args: string[]) {
  const { code, stderr } = await new Deno.Command(command, {
    args,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { ok: code === 0, error: new TextDecoder().decode(stderr).trim() };
}

export interface Tmpfs {
  path: string;
  mounted: { ok: boolean; error: string };
  /** Fills the disk but `leaveBytes`; the filler goes with `free()`. */
  fill(leaveBytes: number): Promise<void>;
  free(): Promise<void>;
}

/** Bytes free on the file system holding `path`. */
async function freeBytes(path: string): Promise<number> {
  const { stdout } = await new Deno.Command("df", {
    args: ["-B1", "--output=avail", path],
    stdout: "piped",
  }).output();
  return Number(new TextDecoder().decode(stdout).trim().split("\n")[1]);
}

export async function mountTmpfs(sizeMb: number, name: string): Promise<Tmpfs> {
  const path = await Deno.makeTempDir({ prefix: `ipenrich-${name}-` });
  const mounted = await run(
    "mount",
    "-t",
    "tmpfs",
    "-o",
    `size=${sizeMb}m`,
    "tmpfs",
    path,
  );
  if (!mounted.ok) {
    console.warn(
      `${name}: skipped, cannot mount a tmpfs (${mounted.error}); it needs root`,
    );
  }
  addEventListener("unload", () => {
    if (mounted.ok) new Deno.Command("umount", { args: [path] }).outputSync();
    Deno.removeSync(path, { recursive: true });
  });
  const filler = join(path, "filler");
  return {
    path,
    mounted,
    async fill(leaveBytes: number) {
      const size = await freeBytes(path) - leaveBytes;
      const filled = await run("fallocate", "-l", String(size), filler);
      if (!filled.ok) throw new Error(`fallocate: ${filled.error}`);
    },
    free: () => Deno.remove(filler).catch(() => {}),
  };
}
