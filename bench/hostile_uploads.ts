// `deno task bench --hostile-uploads`: the small files of issue 22 that
// expand a thousandfold, full size, each uploaded to a fresh server started
// as `deno task start` runs it. Prints the server's resting and peak memory
// (VmRSS, VmHWM from /proc) and the answer. Target: answers, stays up,
// peaks under 700 MB.
import {
  repeatedLinesGzip,
  sharedStringsXlsx,
} from "../tests/helpers/hostile_files.ts";
import { sessionFetch } from "./end_to_end.ts";
import { startServer } from "./server_process.ts";

const MB = 1024 * 1024;

export async function hostileUploadsMain(): Promise<void> {
  const files: [string, () => Promise<Uint8Array> | Uint8Array][] = [
    ["blank-lines.csv.gz", () => repeatedLinesGzip("\n", 200)],
    ["ones.csv.gz", () => repeatedLinesGzip("1\n", 100)],
    ["shared-strings.xlsx", () => sharedStringsXlsx(4_500_000)],
  ];
  console.log(
    "| file | size | expands to | answer | seconds | rest MB | peak MB |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const [name, make] of files) {
    const bytes = await make();
    const dataDir = await Deno.makeTempDir({ prefix: "hostile-upload-" });
    const server = await startServer(dataDir, { DNS_SERVERS: "127.0.0.1:9" });
    try {
      // Let the start's work settle before reading the resting size.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const rest = (await server.memory()).rss;
      const form = new FormData();
      form.append("file", new Blob([bytes as BlobPart]), name);
      const started = performance.now();
      let answer: string;
      let expands = "";
      try {
        const response = await sessionFetch(`${server.url}/api/upload`, {
          method: "POST",
          body: form,
        });
        const body = await response.json();
        answer = `${response.status} ${body.rowCount ?? body.message} rows`;
        if (body.size) expands = `${(body.size / MB).toFixed(0)} MiB`;
      } catch (error) {
        answer = `no answer (${(error as Error).message})`;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const { peak } = await server.memory().catch(() => ({ peak: NaN }));
      console.log(
        `| ${name} | ${
          (bytes.byteLength / 1024).toFixed(0)
        } KB | ${expands} | ` +
          `${answer} | ${seconds} | ${(rest / MB).toFixed(0)} | ${
            (peak / MB).toFixed(0)
          } |`,
      );
    } finally {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  }
}

if (import.meta.main) await hostileUploadsMain();
