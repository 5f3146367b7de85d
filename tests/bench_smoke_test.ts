// Keeps `deno task bench` working: a few thousand rows through the whole
// benchmark script (generation, baselines, real server, load, reverse DNS),
// results to bench/out/. No timed assertions: only that it runs and reports.
// The same for --scale (PostgreSQL mode with worker processes) and for
// --job-latency (a job against the delaying DNS responder).
import { writeSection } from "../bench/report.ts";

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

Deno.test({
  name: "bench --scale runs PostgreSQL mode with 1 and 2 worker processes",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const results = `${ROOT}bench/out/RESULTS-scale-test.md`;
    await Deno.mkdir(`${ROOT}bench/out`, { recursive: true });
    // What the file already holds is kept; the section is added once.
    await Deno.writeTextFile(results, "# Benchmark results\n\nKept text.\n");
    const run = async () => {
      const { code, stdout, stderr } = await new Deno.Command(
        Deno.execPath(),
        {
          args: [
            "run",
            "-A",
            "bench/bench.ts",
            "--scale",
            "--rows=2000",
            "--workers=1,2",
            `--results=${results}`,
          ],
          cwd: ROOT,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        },
      ).output();
      const text = new TextDecoder();
      if (code !== 0) {
        throw new Error(
          `bench --scale exited ${code}\n${text.decode(stdout)}\n${
            text.decode(stderr)
          }`,
        );
      }
    };
    await run();
    const text = await Deno.readTextFile(results);
    const rows = text.split("\n").filter((line) => /^\| [12] /.test(line));
    const cells = rows.map((row) => row.split("|").map((c) => c.trim()));
    // workers, job time, rows/s, speed-up, CPU s per worker (one each).
    if (
      cells.length !== 2 || cells[0][1] !== "1" || cells[1][1] !== "2" ||
      cells[0][4] !== "1.00x" || !/^[\d.]+ \/ [\d.]+$/.test(cells[1][5]) ||
      !cells.every((c) => Number(c[3].replace(/,/g, "")) > 0)
    ) {
      throw new Error(`scale table not as expected:\n${text}`);
    }
    if (
      !text.includes("Kept text.") ||
      !text.includes("## Scaling out") ||
      !text.includes(`${navigator.hardwareConcurrency} cores`) ||
      text.split("<!-- bench:scale:start -->").length !== 2
    ) {
      throw new Error(`results file not as expected:\n${text}`);
    }
    await Deno.remove(results);
  },
});

Deno.test({
  name:
    "bench --job-latency runs a small job at DNS latency through the server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const results = `${ROOT}bench/out/RESULTS-job-latency-test.md`;
    await Deno.mkdir(`${ROOT}bench/out`, { recursive: true });
    await Deno.writeTextFile(results, "# Benchmark results\n");
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "bench/bench.ts",
        "--job-latency",
        "--rows=2000",
        "--distinct=1000",
        `--results=${results}`,
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    if (code !== 0) {
      throw new Error(
        `bench --job-latency exited ${code}\n${decoder.decode(stdout)}\n${
          decoder.decode(stderr)
        }`,
      );
    }
    const text = await Deno.readTextFile(results);
    const row = (mode: string) =>
      text.split("\n").find((line) => line.startsWith(`| ${mode} `))
        ?.split("|").map((cell) => cell.trim());
    const off = row("domain off");
    const defaults = row("defaults");
    // Both jobs ran; with Domain on, names came back and nothing was skipped.
    if (!off || !defaults || !/% \(\d+ of \d+\)$/.test(defaults[5])) {
      throw new Error(`job latency table not as expected:\n${text}`);
    }
    if (defaults[6] !== "0" || Number(defaults[4].replace(/,/g, "")) <= 0) {
      throw new Error(`lookups skipped or no PTR rate:\n${text}`);
    }
    await Deno.remove(results);
  },
});

Deno.test("a scenario's section is replaced on a re-run, the rest kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/RESULTS.md`;
    await Deno.writeTextFile(path, "# Results\n\nBefore.\n");
    await writeSection(path, "bench:scale", "## Scale\n\nfirst run\n");
    await Deno.writeTextFile(
      path,
      `${await Deno.readTextFile(path)}\nAfter.\n`,
    );
    await writeSection(path, "bench:scale", "## Scale\n\nsecond run\n");
    const text = await Deno.readTextFile(path);
    const expected = [
      "# Results",
      "Before.",
      "<!-- bench:scale:start -->",
      "## Scale",
      "second run",
      "<!-- bench:scale:end -->",
      "After.",
    ];
    const lines = text.split("\n").filter((line) => line !== "");
    if (JSON.stringify(lines) !== JSON.stringify(expected)) {
      throw new Error(`not as expected:\n${text}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
