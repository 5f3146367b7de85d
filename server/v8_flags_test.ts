// The server's V8 flags: the same in every way it is started, and a worker's
// memory goes back to the system when the worker ends (measured in a child
// process started with them: resident memory, Linux /proc).
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { MALLOC_ENV_PREFIX, V8_FLAGS, V8_FLAGS_ARG } from "./v8_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("deno task start and dev run the server with the flags", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  for (const task of ["start", "dev"]) {
    const args: string[] = tasks[task].split(/\s+/);
    assertEquals(args.filter((arg) => arg.startsWith("--v8-flags=")), [
      V8_FLAGS_ARG,
    ]);
    ok(
      tasks[task].includes(`${MALLOC_ENV_PREFIX} deno run `),
      `${task} sets ${MALLOC_ENV_PREFIX}`,
    );
  }
  const docker = await Deno.readTextFile(`${ROOT}Dockerfile`);
  ok(docker.includes(MALLOC_ENV_PREFIX), `the image sets ${MALLOC_ENV_PREFIX}`);
});

// Allocates some 250 MB in a worker, ends the worker, then prints the
// resident memory before, with and after it, in MB.
const CHILD = `
const rss = () =>
  Number(Deno.readTextFileSync("/proc/self/status").match(/VmRSS:\\s+(\\d+)/)[1]) / 1024;
const before = rss();
const code = "self.onmessage = () => { const a = []; for (let i = 0; i < 3e6; i++) a.push({ i, s: 'x' + i }); self.postMessage(a.length); };";
const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
await new Promise((resolve) => { worker.onmessage = resolve; worker.postMessage(0); });
const during = rss();
worker.terminate();
await new Promise((resolve) => setTimeout(resolve, 1500));
console.log(JSON.stringify({ before, during, after: rss() }));
`;

async function workerMemory(flags: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "v8-flags-" });
  try {
    const script = `${dir}/child.js`;
    await Deno.writeTextFile(script, CHILD);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `--v8-flags=${flags.join(",")}`, script],
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(stdout);
    ok(code === 0, new TextDecoder().decode(stderr));
    return JSON.parse(text) as {
      before: number;
      during: number;
      after: number;
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "an ended worker's memory goes back to the system",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const withFlags = await workerMemory(V8_FLAGS);
    const grew = withFlags.during - withFlags.before;
    ok(grew > 100, `the worker grew the process by ${grew} MB only`);
    // Most of what the worker took is given back.
    ok(
      withFlags.after - withFlags.before < grew / 4,
      `kept ${withFlags.after - withFlags.before} of ${grew} MB`,
    );
    // Without the teardown flag V8 keeps it: the flag is what does it.
    const without = await workerMemory(
      V8_FLAGS.filter((flag) => !flag.includes("teardown")),
    );
    ok(
      without.after - without.before > (without.during - without.before) / 2,
      `without the flag, kept ${without.after - without.before} of ${
        without.during - without.before
      } MB`,
    );
  },
});
