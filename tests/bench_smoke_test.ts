// Keeps `deno task bench` working: a few thousand rows through the whole
// benchmark script (generation, baselines, real server, load, reverse DNS),
// results to bench/out/. No timed assertions: only that it runs and reports.

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test({
  name: "bench script runs end to end on a small file (--smoke)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const results = `${ROOT}bench/out/RESULTS-smoke-test.md`;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "bench/bench.ts", "--smoke", `--results=${results}`],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    const err = new TextDecoder().decode(stderr);
    if (code !== 0) {
      throw new Error(`bench exited ${code}\n${out}\n${err}`);
    }
    const lines = out.trim().split("\n");
    const summary = lines[lines.length - 1];
    if (!/^bench: 3,000 rows in .* rows\/s/.test(summary)) {
      throw new Error(`no summary line last:\n${out}`);
    }
    const text = await Deno.readTextFile(results);
    for (
      const part of [
        "### Targets",
        "### End to end",
        "### Baselines",
        "### API under load",
        "### Reverse DNS",
      ]
    ) {
      if (!text.includes(part)) throw new Error(`${part} missing:\n${text}`);
    }
    await Deno.remove(results);
  },
});
