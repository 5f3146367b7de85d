// Baselines measured in the same run, on the same machine: what the end to
// end figures are compared with.
import { readChunkLines } from "../server/csv/chunk_lines.ts";
import { countStoredCsv } from "../server/routes/csv_upload_reader.ts";
import { loadConfig } from "../server/config.ts";
import { Engine, loadEngineData } from "../server/enrichment/engine.ts";
import { markNoData } from "../server/enrichment/compose.ts";
import { parseIp } from "../server/enrichment/ip_input.ts";
import type { EnrichOptions } from "../server/enrichment/types.ts";
import { HEADER, IP_COLUMN, readIpCells } from "./generate.ts";

export const JOB_OPTIONS: EnrichOptions = {
  geolocation: true,
  domain: false,
  company: true,
  network: true,
};

export interface Baseline {
  rows: number;
  ms: number;
  rowsPerSecond: number;
}

let engine: Engine | null = null;

export async function benchEngine(): Promise<Engine> {
  if (!engine) {
    const config = loadConfig({});
    const data = await loadEngineData(config);
    engine = new Engine(data, { servers: [], timeoutMs: 1000, concurrency: 1 });
  }
  return engine;
}

/**
 * The raw lookup loop: every row's address parsed and looked up (geolocation,
 * ASN, classification) through the engine the jobs use; no CSV, no database,
 * no cache of repeated addresses.
 */
export async function rawLookupLoop(path: string): Promise<Baseline> {
  const cells = await readIpCells(path);
  const engine = await benchEngine();
  // Warm up the JIT on a slice, as a long job would be warm.
  for (let i = 0; i < Math.min(20_000, cells.length); i++) {
    markNoData(engine.enrichParsed(parseIp(cells[i]), JOB_OPTIONS));
  }
  let found = 0;
  const started = performance.now();
  for (const cell of cells) {
    const result = markNoData(
      engine.enrichParsed(parseIp(cell.trim()), JOB_OPTIONS),
    );
    if (result.success) found++;
  }
  const ms = performance.now() - started;
  if (found === 0) throw new Error("the raw lookup loop found nothing");
  return { rows: cells.length, ms, rowsPerSecond: cells.length / (ms / 1000) };
}

/**
 * Reads the CSV with the server's scanner, as a job reads a chunk (each
 * line's bytes and its address cell), and writes the lines back out.
 */
export async function csvPass(
  path: string,
  outPath: string,
): Promise<Baseline> {
  const started = performance.now();
  const { size } = await Deno.stat(path);
  const { dialect } = await countStoredCsv(path, Infinity);
  const out = await Deno.open(outPath, {
    write: true,
    create: true,
    truncate: true,
  });
  const writer = out.writable.getWriter();
  let rows = -1; // header
  for await (
    const batch of readChunkLines(path, dialect, {
      start: 0,
      end: size,
    }, HEADER.indexOf(IP_COLUMN))
  ) {
    rows += batch.count;
    let size = 0;
    for (let i = 0; i < batch.count; i++) size += batch.end[i] - batch.start[i];
    const text = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < batch.count; i++) {
      const start = batch.start[i];
      const end = batch.end[i];
      text.set(batch.buf.subarray(start, end), at);
      at += end - start;
    }
    await writer.write(text);
  }
  await writer.close();
  const ms = performance.now() - started;
  return { rows, ms, rowsPerSecond: rows / (ms / 1000) };
}
