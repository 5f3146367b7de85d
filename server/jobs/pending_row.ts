// A row between reading and its checkpoint, and the host names of a job's
// cells resolved forward, once each.
import type { Failure } from "../../shared/failures.ts";
import type { ChunkRecord } from "../csv/chunk_lines.ts";
import {
  type ForwardAnswer,
  resolveHostname,
} from "../enrichment/forward_dns.ts";
import { cellNote, readIpCell } from "../enrichment/ip_cell.ts";
import { type ParsedIp, parseIp } from "../enrichment/ip_input.ts";
import { type DnsSettings, parseServer } from "../enrichment/reverse_dns.ts";
import type { PendingRow, QueuedRow } from "./row_window.ts";

// Host names resolved per job are remembered up to this many.
const HOSTNAME_LIMIT = 100_000;

export const failedRow = (
  rowIndex: number,
  row: ChunkRecord,
  ip: string,
  failure: Failure,
  ipUsed: string | null,
): PendingRow => ({
  rowIndex,
  row,
  ip,
  place: -1,
  network: -1,
  failure,
  hosts: null,
  slot: -1,
  ipUsed,
});

/** Each host name resolved once (A, then AAAA) through the job's resolvers. */
export class HostnameCache {
  #answers = new Map<string, Promise<ForwardAnswer>>();

  constructor(private readonly settings: DnsSettings) {}

  resolve(hostname: string): Promise<ForwardAnswer> {
    let answer = this.#answers.get(hostname);
    if (!answer) {
      if (this.#answers.size >= HOSTNAME_LIMIT) this.#answers.clear();
      const { servers, timeoutMs } = this.settings;
      answer = resolveHostname(hostname, servers.map(parseServer), timeoutMs);
      this.#answers.set(hostname, answer);
    }
    return answer;
  }
}

/**
 * A row from its cell as logs hold it (readIpCell: X-Forwarded-For chains,
 * quotes, ports, IPv4-mapped IPv6): `lookUp` gets the address and, when it
 * is not the cell as it stands, the note saying which was used. A host name is resolved first when `hostnames` is given
 * (the job's "Resolve host names"), else the row fails saying so.
 */
export function rowOfCell(
  rowIndex: number,
  row: ChunkRecord,
  cell: string,
  hostnames: HostnameCache | null,
  lookUp: (parsed: ParsedIp, ipUsed: string | null) => PendingRow,
): QueuedRow {
  // Most cells are one plain address: parsed at once, with no reading
  // (readIpCell splits and unwraps, which costs on a million rows).
  const direct = parseIp(cell);
  if (direct.ok && !(direct.version === 4 && cell.includes("::"))) {
    return lookUp(direct, cellNote(cell, direct.ip));
  }
  const read = readIpCell(cell);
  if (read.kind === "address") {
    const { parsed } = read;
    // Not an address at all: the row shows the cell as it was, not the
    // piece of it the reader tried last.
    if (!parsed.ok && parsed.failure.kind === "invalid") {
      return lookUp({ ...parsed, ip: cell.trim() }, null);
    }
    return lookUp(parsed, read.note);
  }
  const { hostname } = read;
  if (!hostnames) {
    return failedRow(rowIndex, row, hostname, { kind: "hostname" }, null);
  }
  return hostnames.resolve(hostname).then((answer) =>
    answer.ok
      ? lookUp(
        { ok: true, ip: answer.ip, version: answer.version },
        answer.note,
      )
      : failedRow(
        rowIndex,
        row,
        hostname,
        { kind: "unresolved", range: answer.reason },
        null,
      )
  );
}
