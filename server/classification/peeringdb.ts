// PeeringDB's network type (`info_type` of its /api/net records) as one
// more piece of evidence for the model, for servers that may go online:
// `deno task fetch:peeringdb` copies the per-network types into DATA_DIR and
// the server reads that copy at start. Without the copy (the default) the
// classifier stands on the bundled data alone.
import { rename, writeFile } from "node:fs/promises";
import { z } from "zod";

export const PEERINGDB_FILE = "peeringdb-net.json";
export const PEERINGDB_URL =
  "https://www.peeringdb.com/api/net?fields=asn,info_type,info_types";

/**
 * What a type says of a network, as log-odds added to the model's
 * calibrated answer: a prior, not fitted (the offline training data has no
 * PeeringDB copy). PeeringDB's "Cable/DSL/ISP" networks are mostly access
 * networks (odds of access times e^1.5, about 4.5); the others mostly not.
 */
const TYPE_LOG_ODDS: Record<string, number> = {
  "Cable/DSL/ISP": 1.5,
  "NSP": -1.5,
  "Content": -1.5,
  "Enterprise": -1.5,
  "Educational/Research": -1.5,
  "Government": -1.5,
  "Non-Profit": -1.5,
  "Network Services": -1.5,
  "Route Server": -1.5,
  "Route Collector": -1.5,
};

/** The log-odds a network's PeeringDB type adds (0: none or undisclosed). */
export function peeringDbLogOdds(type: string | undefined): number {
  return type === undefined ? 0 : TYPE_LOG_ODDS[type] ?? 0;
}

// One record of PeeringDB's /api/net answer ({"data": [...], "meta": {}});
// newer records also list every type in info_types.
const NetRecord = z.object({
  asn: z.number().int().positive(),
  info_type: z.string().nullish(),
  info_types: z.array(z.string()).nullish(),
}).passthrough();
const NetAnswer = z.object({ data: z.array(NetRecord) });

/** AS number -> type, of the networks that state one. */
export type PeeringDbTypes = Record<number, string>;

/** The types of a /api/net answer; throws, in words, on another shape. */
export function parseNetAnswer(body: unknown): PeeringDbTypes {
  const parsed = NetAnswer.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `not a PeeringDB /api/net answer: ${issue.path.join(".") || "body"}: ` +
        issue.message,
    );
  }
  const types: PeeringDbTypes = {};
  for (const net of parsed.data.data) {
    const type = net.info_type || net.info_types?.[0];
    if (type && type !== "Not Disclosed") types[net.asn] = type;
  }
  return types;
}

/** The copy as written to DATA_DIR. */
interface Copy {
  source: string;
  fetchedAt: string;
  types: PeeringDbTypes;
}

/** Fetches `url` into DATA_DIR/peeringdb-net.json; the networks typed. */
export async function fetchPeeringDb(
  url: string,
  dataDir: string,
): Promise<number> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
  const types = parseNetAnswer(body);
  const copy: Copy = {
    source: url,
    fetchedAt: new Date().toISOString(),
    types,
  };
  // Written whole, then renamed: a server starting meanwhile reads the old
  // copy or the new one.
  const path = `${dataDir}/${PEERINGDB_FILE}`;
  await writeFile(`${path}.tmp`, JSON.stringify(copy));
  await rename(`${path}.tmp`, path);
  return Object.keys(types).length;
}

/** DATA_DIR's copy, or null without one; a damaged copy is named. */
export async function loadPeeringDb(
  dataDir: string,
): Promise<PeeringDbTypes | null> {
  const path = `${dataDir}/${PEERINGDB_FILE}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const copy = JSON.parse(text) as Copy;
    if (!copy.types || typeof copy.types !== "object") throw new Error();
    return copy.types;
  } catch {
    throw new Error(
      `${path} is not a PeeringDB copy: run "deno task fetch:peeringdb" ` +
        "again, or delete it",
    );
  }
}
